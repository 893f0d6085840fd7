// rdma fabric report DIR: one health report of the fabric, as files an
// admin hands on (report.html, fabric.json, findings.json, counters.json,
// metrics.prom), from one discovery, every check and the error sweep.
#pragma once

#include "rdma/command.h"

namespace rdma {

// `fabric report DIR [ from FILE ] [via DEV/PORT]`; exit status 1 when a
// finding is an error or part of the fabric could not be read.
void fabric_report(Ctx& c);

}  // namespace rdma
