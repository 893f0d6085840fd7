// QP counters (drivers/infiniband/core/counters.c): modes, binding and
// unbinding, as the statistic commands and add_qp() change them.
#include "lib/testing/kernel/counters.h"

#include <cerrno>

#include "lib/nl/nldev.h"

namespace rdma::testkernel {

namespace {

const char kBoundQpMsg[] = "Modifying auto mode is not allowed when there is a bound QP";

size_t counters_on_port(const Device& d, uint32_t port) {
  size_t n = 0;
  for (size_t i = 0; i < d.counters.size(); ++i) n += d.counters.at(i).port == port;
  return n;
}

}  // namespace

// rdma_counter_set_auto_mode()
int set_auto_mode(Device& d, uint32_t port, uint32_t mask, Extack* ext) {
  Port& p = d.ports[port - 1];
  if (!p.hw_counters) return -EOPNOTSUPP;
  size_t bound = counters_on_port(d, port);
  uint32_t mode =
      mask ? RDMA_COUNTER_MODE_AUTO : (bound ? RDMA_COUNTER_MODE_MANUAL : RDMA_COUNTER_MODE_NONE);
  if (p.counter_mode == mode && p.counter_mask == mask) return 0;
  if (mode == RDMA_COUNTER_MODE_AUTO) {
    if (mask & ~(RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID)) return -EINVAL;
    if (bound) {
      ext->msg = kBoundQpMsg;
      return -EBUSY;
    }
  }
  p.counter_mode = mode;
  p.counter_mask = mask;
  return 0;
}

// rdma_counter_bind_qpn(): bind to an existing counter.
int bind_qpn(Device& d, uint32_t port, uint32_t qpn, uint32_t cntn) {
  if (d.ports[port - 1].counter_mode == RDMA_COUNTER_MODE_AUTO) return -EINVAL;
  Qp* qp = d.qps.find_stored(qpn);
  if (!qp) return -ENOENT;
  StatCounter* c = d.counters.find_stored(cntn);
  if (!c) return -ENOENT;
  if (c->owner.kernel() != qp->owner.kernel()) return -EINVAL;
  if (c->port != qp->port) return -EINVAL;
  if (qp->counter_id) return -EINVAL;
  if (!d.counter_bind) return -EOPNOTSUPP;
  qp->counter_id = cntn;
  return 0;
}

// rdma_counter_bind_qpn_alloc(): a new counter for the QP.
int bind_qpn_alloc(Device& d, uint32_t port, uint32_t qpn, uint32_t* cntn) {
  Port& p = d.ports[port - 1];
  if (!p.hw_counters) return -EOPNOTSUPP;
  if (p.counter_mode == RDMA_COUNTER_MODE_AUTO) return -EINVAL;
  Qp* qp = d.qps.find_stored(qpn);
  if (!qp) return -ENOENT;
  if (qp->port >= 1 && qp->port <= d.ports.size() && qp->port != port) return -EINVAL;
  // alloc_and_bind() turns every failure into ENOMEM.
  if (!d.counter_bind || qp->counter_id) return -ENOMEM;
  StatCounter c;
  c.id = d.next_counter_id++;
  c.owner = qp->owner;
  c.port = port;
  c.mode = RDMA_COUNTER_MODE_MANUAL;
  c.counters = *p.hw_counters;
  for (HwCounter& h : c.counters) h.value = 0;
  d.counters.items.push_back(c);
  p.counter_mode = RDMA_COUNTER_MODE_MANUAL;
  p.counter_mask = 0;
  qp->counter_id = c.id;
  *cntn = c.id;
  return 0;
}

// rdma_counter_unbind_qpn(): the counter goes with its last QP, its values
// folding into the port's history.
int unbind_qpn(Device& d, uint32_t port, uint32_t qpn, uint32_t cntn) {
  Qp* qp = d.qps.find_stored(qpn);
  if (!qp) return -ENOENT;
  if (qp->port >= 1 && qp->port <= d.ports.size() && qp->port != port) return -EINVAL;
  Port& p = d.ports[port - 1];
  if (!qp->counter_id || *qp->counter_id != cntn || p.counter_mode != RDMA_COUNTER_MODE_MANUAL)
    return -EINVAL;
  if (!d.counter_bind) return -EOPNOTSUPP;
  qp->counter_id.reset();
  for (size_t i = 0; i < d.qps.size(); ++i) {
    std::optional<uint32_t> id = d.qps.at(i).counter_id;
    if (id && *id == cntn) return 0;
  }
  auto& items = d.counters.items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].id != cntn) continue;
    if (p.hw_counters)
      for (size_t j = 0; j < p.hw_counters->size() && j < items[i].counters.size(); ++j)
        (*p.hw_counters)[j].value += items[i].counters[j].value;
    items.erase(items.begin() + static_cast<long>(i));
    break;
  }
  if (!counters_on_port(d, port)) {
    p.counter_mode = RDMA_COUNTER_MODE_NONE;
    p.counter_mask = 0;
  }
  return 0;
}

// rdma_counter_bind_qp_auto(): a counter of the same QP type and/or pid, or
// a new one.
int bind_qp_auto(Device& d, Qp& qp) {
  if (qp.owner.kernel() || qp.port < 1 || qp.port > d.ports.size()) return 0;
  Port& p = d.ports[qp.port - 1];
  if (p.counter_mode != RDMA_COUNTER_MODE_AUTO) return 0;
  for (StatCounter& c : d.counters.items) {
    if (c.port != qp.port) continue;
    if ((p.counter_mask & RDMA_COUNTER_MASK_QP_TYPE) && c.qp_type != qp.type) continue;
    if ((p.counter_mask & RDMA_COUNTER_MASK_PID) && c.owner.pid != qp.owner.pid) continue;
    if (!d.counter_bind) return -EOPNOTSUPP;
    qp.counter_id = c.id;
    return 0;
  }
  if (!d.counter_bind || !p.hw_counters) return -ENOMEM;
  StatCounter c;
  c.id = d.next_counter_id++;
  c.owner = qp.owner;
  c.port = qp.port;
  c.mode = RDMA_COUNTER_MODE_AUTO;
  c.mask = p.counter_mask;
  c.qp_type = qp.type;
  c.counters = *p.hw_counters;
  for (HwCounter& h : c.counters) h.value = 0;
  d.counters.items.push_back(c);
  qp.counter_id = c.id;
  return 0;
}

}  // namespace rdma::testkernel
