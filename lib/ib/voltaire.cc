#include "lib/ib/voltaire.h"

namespace rdma::ib {

namespace {

// The fabric boards (spines), by how their ports reach the line slots.
enum class Spine { None, Sfb4, Sfb12, Sfb18, Sfb18x2, Sfb4200 };
// The leaf boards (lines), by how their ports reach the faceplate.
enum class Line { None, Slb24, Slb8, Slb2024, Slb4018 };

struct SpineModel {
  uint16_t device;
  Spine board;
  const char* type;
};
// Device IDs as libibnetdisc lists them (SDR and DDR boards alike).
constexpr SpineModel kSpines[] = {
    {0x5a0b, Spine::Sfb4, "ISR9096"},    {0x5a33, Spine::Sfb4, "ISR9096"},
    {0x5a08, Spine::Sfb12, "ISR9288"},   {0x5a32, Spine::Sfb12, "ISR9288"},
    {0x5a37, Spine::Sfb12, "ISR2012"},   {0x5a40, Spine::Sfb4, "ISR2004"},
    {0x5a5c, Spine::Sfb18, "ISR4700"},   {0x5a5d, Spine::Sfb18x2, "ISR4700"},
    {0x5a60, Spine::Sfb4200, "ISR4200"},
};

const SpineModel* spine_model(uint16_t device) {
  for (const SpineModel& m : kSpines)
    if (m.device == device) return &m;
  return nullptr;
}

Line line_board(uint16_t device) {
  switch (device) {
    case 0x5a09:  // sLB-24
    case 0x5a34:  // sLB-24 DDR
    case 0x5a42:  // sRB-2004
      return Line::Slb24;
    case 0x5a0d:
      return Line::Slb8;
    case 0x5a38:
      return Line::Slb2024;
    case 0x5a5b:
      return Line::Slb4018;
    default:
      return Line::None;
  }
}

ChassisPlace place(const SpineModel& m, ChassisSlot slot, unsigned number, unsigned chip) {
  return {m.type, slot, number, chip};
}

}  // namespace

bool voltaire_spine(uint16_t device_id) {
  return spine_model(device_id) != nullptr;
}

bool voltaire_line(uint16_t device_id) {
  return line_board(device_id) != Line::None;
}

unsigned voltaire_inner_ports(uint16_t device_id) {
  switch (line_board(device_id)) {
    case Line::None:
      break;
    case Line::Slb4018:
      return 18;
    default:
      return 12;
  }
  // The double-density ISR4700 spine's ports 19-36 are the box's own.
  const SpineModel* m = spine_model(device_id);
  return m && m->board == Spine::Sfb18x2 ? 18 : 0;
}

std::optional<ChassisPlace> voltaire_spine_place(uint16_t spine_device, unsigned q) {
  const SpineModel* m = spine_model(spine_device);
  if (!m || q < 1) return std::nullopt;
  constexpr ChassisSlot kSpine = ChassisSlot::Spine;
  switch (m->board) {
    case Spine::None:
      break;
    // A line's ports 1-12 go three to each of four spine slots; the
    // 12-port spines have three chips a slot, one per port of the three.
    case Spine::Sfb4:
      if (q <= 12) return place(*m, kSpine, (q - 1) / 3 + 1, 1);
      break;
    case Spine::Sfb12:
      if (q <= 12) return place(*m, kSpine, (q - 1) / 3 + 1, (q - 1) % 3 + 1);
      break;
    // ISR4700: ports 1-18 two to each of nine slots; the double boards'
    // two chips take the even and the odd port.
    case Spine::Sfb18:
      if (q <= 18) return place(*m, kSpine, (q + 1) / 2, 1);
      break;
    case Spine::Sfb18x2:
      if (q <= 18) return place(*m, kSpine, (q + 1) / 2, q % 2 ? 2 : 1);
      break;
    // ISR4200: four ports a slot, ports 5-6 to no slot.
    case Spine::Sfb4200:
      if (q <= 4) return place(*m, kSpine, 1, 1);
      if (q >= 7 && q <= 18) return place(*m, kSpine, (q - 7) / 4 + 2, 1);
      break;
  }
  return std::nullopt;
}

std::optional<ChassisPlace> voltaire_line_place(uint16_t spine_device, unsigned p) {
  const SpineModel* m = spine_model(spine_device);
  if (!m || p < 1) return std::nullopt;
  constexpr ChassisSlot kLine = ChassisSlot::Line;
  switch (m->board) {
    case Spine::None:
      break;
    // sFB-4: six ports a line slot, three to each of its two chips.
    case Spine::Sfb4:
      if (p <= 24) return place(*m, kLine, (p - 1) / 6 + 1, (p - 1) / 3 % 2 + 1);
      break;
    // sFB-12: two ports a line slot, one to each chip.
    case Spine::Sfb12:
      if (p <= 24) return place(*m, kLine, (p + 1) / 2, (p - 1) % 2 + 1);
      break;
    case Spine::Sfb18:
      if (p <= 36) return place(*m, kLine, (p + 1) / 2, 1);
      break;
    case Spine::Sfb18x2:
      if (p <= 18) return place(*m, kLine, p, 1);
      break;
    case Spine::Sfb4200:
      if (p <= 36) return place(*m, kLine, (p - 1) / 4 + 1, 1);
      break;
  }
  return std::nullopt;
}

std::optional<ChassisPlace> voltaire_module_place(uint16_t spine_device, unsigned q,
                                                  uint64_t spine_guid) {
  const SpineModel* m = spine_model(spine_device);
  if (!m || q < 1 || q > 24) return std::nullopt;
  constexpr ChassisSlot kModule = ChassisSlot::Router;
  switch (m->board) {
    // sFB-4: the line slot of the port; the module's chips meet the
    // spine's three ports of a chip in reverse.
    case Spine::Sfb4:
      return place(*m, kModule, (q - 1) / 6 + 1, 3 - (q - 1) % 3);
    // sFB-12: the line slot of the port; the chip guessed from the
    // spine's GUID (a board's three chips have consecutive GUIDs: the
    // module meets chip 3 of the first, chip 1 of the last).
    case Spine::Sfb12: {
      uint64_t guess = spine_guid % 4;
      return place(*m, kModule, (q + 1) / 2, guess == 3 ? 1 : guess == 1 ? 3 : 2);
    }
    default:
      break;
  }
  return std::nullopt;
}

unsigned voltaire_line_position(uint16_t device_id, const ChassisPlace& p) {
  // The sLB-4018 has one chip a slot.
  int i = line_board(device_id) == Line::Slb4018
              ? static_cast<int>(p.number)
              : 3 * (static_cast<int>(p.number) - 1) + static_cast<int>(p.chip);
  return i >= 1 && i <= 36 ? static_cast<unsigned>(i) : 0;
}

unsigned voltaire_spine_position(uint16_t device_id, const ChassisPlace& p) {
  const SpineModel* m = spine_model(device_id);
  int n = static_cast<int>(p.number), chip = static_cast<int>(p.chip);
  int i = n;
  if (m && m->board == Spine::Sfb12)
    i = 3 * (n - 1) + chip;
  else if (m && (m->board == Spine::Sfb18 || m->board == Spine::Sfb18x2))
    i = 2 * (n - 1) + chip;
  return i >= 1 && i <= 18 ? static_cast<unsigned>(i) : 0;
}

unsigned voltaire_external_port(uint16_t device_id, unsigned chip, unsigned port) {
  if (chip < 1 || chip > 2) return 0;
  switch (line_board(device_id)) {
    case Line::None:
      break;
    // sLB-24: each chip's 13-24 are twelve faceplate ports, chip 2's the
    // next twelve, in the board's wiring order.
    case Line::Slb24: {
      static constexpr unsigned kChip1[12] = {6, 5, 4, 18, 17, 16, 1, 2, 3, 13, 14, 15};
      if (port < 13 || port > 24) return 0;
      return kChip1[port - 13] + (chip - 1) * 6;
    }
    // sLB-8: each 12X faceplate port is three of a chip's 4X ports.
    case Line::Slb8: {
      static constexpr unsigned kChip1[4] = {2, 6, 1, 5};
      if (port < 13 || port > 24) return 0;
      return kChip1[(port - 13) / 3] + (chip - 1) * 2;
    }
    case Line::Slb2024:
      if (port < 13 || port > 24) return 0;
      return chip == 1 ? port : port - 12;
    case Line::Slb4018:
      return port >= 19 && port <= 36 ? port - 18 : 0;
  }
  // ISR4700 double spine: three 4X ports to each 12X port, chip 1's 7-12.
  const SpineModel* m = spine_model(device_id);
  if (!m || m->board != Spine::Sfb18x2 || port < 19 || port > 36) return 0;
  return (port - 19) / 3 + (chip == 1 ? 7 : 1);
}

}  // namespace rdma::ib
