#include "rdma/ib/port_tables.h"

#include "lib/ib/port_table_view.h"

namespace rdma {

namespace {

view::Record base_record(const PortTarget& p) {
  view::Record rec;
  add_target(rec, p.route);
  rec.pair("port", p.port);
  return rec;
}

void add_capacity(view::Record& rec, unsigned cap) {
  rec.add("capacity", "capacity " + std::to_string(cap) + " ", cap);
}

void show_pkeys(Ctx& c, MadSession& s, const PortTarget& p) {
  ib::PKeyTable t = ib::read_pkeys(s, p);
  view::Record rec = base_record(p);
  add_capacity(rec, t.capacity);
  ib::add_pkey_values(t, rec);
  c.out.record(rec);
}

void show_guids(Ctx& c, MadSession& s, const PortTarget& p) {
  ib::GuidTable t = ib::read_guids(s, p);
  view::Record rec = base_record(p);
  add_capacity(rec, t.capacity);
  ib::add_guid_values(t, rec);
  c.out.record(rec);
}

void show_sl2vl(Ctx& c, MadSession& s, const PortTarget& p) {
  ib::read_sl2vl(s, p, [&](const ib::Sl2VlTable& t) {
    view::Record rec = base_record(p);
    if (t.in_port) rec.add("in", "in " + std::to_string(*t.in_port) + " ", unsigned{*t.in_port});
    ib::add_sl2vl_values(t, rec);
    c.out.record(rec);
  });
}

void show_vlarb(Ctx& c, MadSession& s, const PortTarget& p) {
  ib::read_vlarb(s, p, [&](const ib::VlArbTable& t) {
    view::Record rec = base_record(p);
    rec.add("priority", std::string("priority ") + (t.high ? "high" : "low") + " ",
            t.high ? "high" : "low");
    add_capacity(rec, t.capacity);
    ib::add_vlarb_values(t, rec);
    c.out.record(rec);
  });
}

}  // namespace

PortTarget port_target(MadSession& s, const mad::Route& r, std::optional<uint8_t> port) {
  return ib::read_table_port(s, r, port);
}

void show_port_table(Ctx& c, MadSession& s, const PortTarget& p, const std::string& table) {
  if (table == "pkeys")
    show_pkeys(c, s, p);
  else if (table == "guids")
    show_guids(c, s, p);
  else if (table == "sl2vl")
    show_sl2vl(c, s, p);
  else
    show_vlarb(c, s, p);
}

}  // namespace rdma
