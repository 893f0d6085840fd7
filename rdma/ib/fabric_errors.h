// rdma fabric errors: the error sweep of every port of the fabric the
// fabric commands find (ibqueryerrors), and its reset (perfquery -R over
// the fabric).
#pragma once

#include "lib/ib/errors.h"
#include "rdma/command.h"

namespace rdma {

class MadSession;

// `fabric errors [ reset ] ...`; exit status 1 when a port is over a
// threshold or a PMA did not answer (as ibqueryerrors).
void fabric_errors(Ctx& c);
void fabric_counters(Ctx& c);

// One port of a sweep as `fabric errors` lists it: where it is, then its
// counters over their thresholds (every checked one with all_counters).
void errors_record(const ib::Fabric& f, const ib::PortCounters& c, const ib::SweepOptions& o,
                   bool all_counters, view::Record& rec);

// Every counter of every port of a sweep as metrics, labelled with both
// ends of each port's cable.
void errors_metrics(const ib::Fabric& f, const ib::ErrorSweep& sweep, const ib::SweepOptions& o,
                    view::Printer& out);

// The sweep's warnings (and with -d its counts) on c.err, after the
// progress line is gone; exit status 1 when there are warnings.
void sweep_warnings(Ctx& c, const ib::ErrorSweep& sweep, MadSession& s);

// A record's fields as one JSON object: a port record inside the
// "ports" member of the one object -j prints.
view::Json record_json(const view::Record& rec);

}  // namespace rdma
