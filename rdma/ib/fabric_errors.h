// rdma fabric errors: the error sweep of every port of the fabric the
// fabric commands find (ibqueryerrors), and its reset (perfquery -R over
// the fabric).
#pragma once

#include "lib/ib/errors.h"
#include "rdma/command.h"
#include "rdma/ib/check.h"

namespace rdma {

class MadSession;

// `fabric errors [ reset ] ...`; exit status 1 when a port is over a
// threshold or a PMA did not answer (as ibqueryerrors).
void fabric_errors(Ctx& c);

// The sweep's warnings (and with -d its counts) on c.err, after the
// progress line is gone; exit status 1 when there are warnings.
void sweep_warnings(Ctx& c, const ib::ErrorSweep& sweep, MadSession& s);

}  // namespace rdma
