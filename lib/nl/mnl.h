// The part of libmnl's API the tool uses (socket, message and attribute
// helpers), written here with libmnl's names and meanings. Debian ships
// libmnl as a shared library only, and the netlink front end is linked
// statically so that it starts fast under emulation (issue 16,
// bench/startup_results.md); the functions are small and inline, which a
// listing that reads a dozen attributes per object also likes.
//
// Layout rules are the kernel's (include/uapi/linux/netlink.h): messages
// and attributes are padded to 4 bytes, an attribute's length counts its
// 4-byte header and not its padding.
#pragma once

#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#define MNL_ALIGNTO 4
#define MNL_ALIGN(len) (((len) + MNL_ALIGNTO - 1) & ~(MNL_ALIGNTO - 1))
#define MNL_NLMSG_HDRLEN MNL_ALIGN(sizeof(struct nlmsghdr))
#define MNL_ATTR_HDRLEN MNL_ALIGN(sizeof(struct nlattr))
#define MNL_SOCKET_AUTOPID 0

// ---------------------------------------------------------------- socket
// mnl.cc. Errors return NULL / -1 with errno set, as libmnl's.
struct mnl_socket;
mnl_socket* mnl_socket_open(int bus);
int mnl_socket_bind(mnl_socket* nl, unsigned int groups, pid_t pid);
int mnl_socket_close(mnl_socket* nl);
int mnl_socket_get_fd(const mnl_socket* nl);
unsigned int mnl_socket_get_portid(const mnl_socket* nl);
ssize_t mnl_socket_sendto(const mnl_socket* nl, const void* buf, size_t len);
// -1 with ENOSPC when the datagram was larger than len (and was cut).
ssize_t mnl_socket_recvfrom(const mnl_socket* nl, void* buf, size_t len);
int mnl_socket_setsockopt(const mnl_socket* nl, int type, void* buf, socklen_t len);

// ---------------------------------------------------------------- messages
inline nlmsghdr* mnl_nlmsg_put_header(void* buf) {
  auto* nlh = static_cast<nlmsghdr*>(buf);
  std::memset(nlh, 0, MNL_NLMSG_HDRLEN);
  nlh->nlmsg_len = MNL_NLMSG_HDRLEN;
  return nlh;
}

inline void* mnl_nlmsg_put_extra_header(nlmsghdr* nlh, size_t size) {
  char* p = reinterpret_cast<char*>(nlh) + nlh->nlmsg_len;
  nlh->nlmsg_len += MNL_ALIGN(size);
  std::memset(p, 0, MNL_ALIGN(size));
  return p;
}

inline void* mnl_nlmsg_get_payload(const nlmsghdr* nlh) {
  return const_cast<char*>(reinterpret_cast<const char*>(nlh) + MNL_NLMSG_HDRLEN);
}

inline size_t mnl_nlmsg_get_payload_len(const nlmsghdr* nlh) {
  return nlh->nlmsg_len - MNL_NLMSG_HDRLEN;
}

inline void* mnl_nlmsg_get_payload_tail(const nlmsghdr* nlh) {
  return const_cast<char*>(reinterpret_cast<const char*>(nlh) + MNL_ALIGN(nlh->nlmsg_len));
}

// Whether a whole message starts at nlh with len bytes left in the buffer.
inline bool mnl_nlmsg_ok(const nlmsghdr* nlh, int len) {
  return len >= static_cast<int>(sizeof(nlmsghdr)) && nlh->nlmsg_len >= sizeof(nlmsghdr) &&
         static_cast<int>(nlh->nlmsg_len) <= len;
}

inline nlmsghdr* mnl_nlmsg_next(const nlmsghdr* nlh, int* len) {
  *len -= MNL_ALIGN(nlh->nlmsg_len);
  return reinterpret_cast<nlmsghdr*>(const_cast<char*>(reinterpret_cast<const char*>(nlh)) +
                                     MNL_ALIGN(nlh->nlmsg_len));
}

// ---------------------------------------------------------------- attributes
inline uint16_t mnl_attr_get_type(const nlattr* a) {
  return a->nla_type & NLA_TYPE_MASK;
}

inline uint16_t mnl_attr_get_payload_len(const nlattr* a) {
  return a->nla_len - MNL_ATTR_HDRLEN;
}

inline void* mnl_attr_get_payload(const nlattr* a) {
  return const_cast<char*>(reinterpret_cast<const char*>(a) + MNL_ATTR_HDRLEN);
}

inline const char* mnl_attr_get_str(const nlattr* a) {
  return static_cast<const char*>(mnl_attr_get_payload(a));
}

inline uint8_t mnl_attr_get_u8(const nlattr* a) {
  return *static_cast<const uint8_t*>(mnl_attr_get_payload(a));
}

// Payloads are 4-byte aligned only: the wider loads copy.
inline uint16_t mnl_attr_get_u16(const nlattr* a) {
  uint16_t v;
  std::memcpy(&v, mnl_attr_get_payload(a), sizeof v);
  return v;
}

inline uint32_t mnl_attr_get_u32(const nlattr* a) {
  uint32_t v;
  std::memcpy(&v, mnl_attr_get_payload(a), sizeof v);
  return v;
}

inline uint64_t mnl_attr_get_u64(const nlattr* a) {
  uint64_t v;
  std::memcpy(&v, mnl_attr_get_payload(a), sizeof v);
  return v;
}

// Whether a whole attribute starts at a with len bytes left.
inline bool mnl_attr_ok(const nlattr* a, int len) {
  return len >= static_cast<int>(sizeof(nlattr)) && a->nla_len >= sizeof(nlattr) &&
         static_cast<int>(a->nla_len) <= len;
}

inline nlattr* mnl_attr_next(const nlattr* a) {
  return reinterpret_cast<nlattr*>(const_cast<char*>(reinterpret_cast<const char*>(a)) +
                                   MNL_ALIGN(a->nla_len));
}

// Appends an attribute to the message (the caller's buffer is big enough).
inline void mnl_attr_put(nlmsghdr* nlh, uint16_t type, size_t len, const void* data) {
  auto* a = static_cast<nlattr*>(mnl_nlmsg_get_payload_tail(nlh));
  size_t attr_len = MNL_ATTR_HDRLEN + len;
  a->nla_type = type;
  a->nla_len = static_cast<uint16_t>(attr_len);
  char* payload = static_cast<char*>(mnl_attr_get_payload(a));
  if (len) std::memcpy(payload, data, len);
  std::memset(payload + len, 0, MNL_ALIGN(len) - len);
  nlh->nlmsg_len += MNL_ALIGN(attr_len);
}

inline void mnl_attr_put_u8(nlmsghdr* nlh, uint16_t type, uint8_t v) {
  mnl_attr_put(nlh, type, sizeof v, &v);
}

inline void mnl_attr_put_u16(nlmsghdr* nlh, uint16_t type, uint16_t v) {
  mnl_attr_put(nlh, type, sizeof v, &v);
}

inline void mnl_attr_put_u32(nlmsghdr* nlh, uint16_t type, uint32_t v) {
  mnl_attr_put(nlh, type, sizeof v, &v);
}

inline void mnl_attr_put_u64(nlmsghdr* nlh, uint16_t type, uint64_t v) {
  mnl_attr_put(nlh, type, sizeof v, &v);
}

inline void mnl_attr_put_strz(nlmsghdr* nlh, uint16_t type, const char* s) {
  mnl_attr_put(nlh, type, std::strlen(s) + 1, s);
}

// A nest is an attribute whose payload is attributes: start it, put its
// members, end it (which sets its length).
inline nlattr* mnl_attr_nest_start(nlmsghdr* nlh, uint16_t type) {
  auto* start = static_cast<nlattr*>(mnl_nlmsg_get_payload_tail(nlh));
  start->nla_type = NLA_F_NESTED | type;
  nlh->nlmsg_len += MNL_ALIGN(sizeof(nlattr));
  return start;
}

inline void mnl_attr_nest_end(nlmsghdr* nlh, nlattr* start) {
  start->nla_len = static_cast<uint16_t>(static_cast<char*>(mnl_nlmsg_get_payload_tail(nlh)) -
                                         reinterpret_cast<char*>(start));
}
