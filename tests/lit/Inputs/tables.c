/* tables.c: unit conversion and lookup code of the kind generated or copy-pasted in firmware:
 * many near-identical accessor/validator functions, each over its own static table, plus
 * string tables and a command dispatcher.
 *
 * Size-optimizer interest: functions differing only in the table or constant they use
 * (function merging, machine outlining), read-only data layout, small switch statements
 * (jump tables vs. compare chains). Prints every lookup result. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- Piecewise-linear calibration tables, one per sensor. ---- */

struct Point { int16_t raw; int16_t value; };

static const struct Point TempTable[] = {
  {0, -400}, {410, -200}, {820, 0}, {1230, 250}, {1640, 500}, {2050, 800}, {2460, 1250},
};
static const struct Point PressTable[] = {
  {0, 0}, {500, 900}, {1000, 1800}, {1500, 2800}, {2000, 3900}, {2500, 5100},
};
static const struct Point HumidTable[] = {
  {0, 0}, {300, 100}, {900, 400}, {1500, 700}, {2100, 1000},
};
static const struct Point LightTable[] = {
  {0, 0}, {100, 10}, {400, 100}, {1000, 1000}, {2000, 10000}, {3000, 30000},
};
static const struct Point BattTable[] = {
  {0, 3000}, {800, 3300}, {1600, 3600}, {2400, 3900}, {3200, 4200},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Deliberately written out per sensor, as such code usually is. */
static int calibrateTemp(int raw) {
  if (raw <= TempTable[0].raw) return TempTable[0].value;
  for (int i = 1; i < COUNT(TempTable); i++)
    if (raw <= TempTable[i].raw) {
      int x0 = TempTable[i - 1].raw, x1 = TempTable[i].raw;
      int y0 = TempTable[i - 1].value, y1 = TempTable[i].value;
      return y0 + (y1 - y0) * (raw - x0) / (x1 - x0);
    }
  return TempTable[COUNT(TempTable) - 1].value;
}

static int calibratePress(int raw) {
  if (raw <= PressTable[0].raw) return PressTable[0].value;
  for (int i = 1; i < COUNT(PressTable); i++)
    if (raw <= PressTable[i].raw) {
      int x0 = PressTable[i - 1].raw, x1 = PressTable[i].raw;
      int y0 = PressTable[i - 1].value, y1 = PressTable[i].value;
      return y0 + (y1 - y0) * (raw - x0) / (x1 - x0);
    }
  return PressTable[COUNT(PressTable) - 1].value;
}

static int calibrateHumid(int raw) {
  if (raw <= HumidTable[0].raw) return HumidTable[0].value;
  for (int i = 1; i < COUNT(HumidTable); i++)
    if (raw <= HumidTable[i].raw) {
      int x0 = HumidTable[i - 1].raw, x1 = HumidTable[i].raw;
      int y0 = HumidTable[i - 1].value, y1 = HumidTable[i].value;
      return y0 + (y1 - y0) * (raw - x0) / (x1 - x0);
    }
  return HumidTable[COUNT(HumidTable) - 1].value;
}

static int calibrateLight(int raw) {
  if (raw <= LightTable[0].raw) return LightTable[0].value;
  for (int i = 1; i < COUNT(LightTable); i++)
    if (raw <= LightTable[i].raw) {
      int x0 = LightTable[i - 1].raw, x1 = LightTable[i].raw;
      int y0 = LightTable[i - 1].value, y1 = LightTable[i].value;
      return y0 + (y1 - y0) * (raw - x0) / (x1 - x0);
    }
  return LightTable[COUNT(LightTable) - 1].value;
}

static int calibrateBatt(int raw) {
  if (raw <= BattTable[0].raw) return BattTable[0].value;
  for (int i = 1; i < COUNT(BattTable); i++)
    if (raw <= BattTable[i].raw) {
      int x0 = BattTable[i - 1].raw, x1 = BattTable[i].raw;
      int y0 = BattTable[i - 1].value, y1 = BattTable[i].value;
      return y0 + (y1 - y0) * (raw - x0) / (x1 - x0);
    }
  return BattTable[COUNT(BattTable) - 1].value;
}

/* ---- Range validators: same body, different limits. ---- */

static int validTemp(int v) { return v >= -400 && v <= 1250; }
static int validPress(int v) { return v >= 0 && v <= 5100; }
static int validHumid(int v) { return v >= 0 && v <= 1000; }
static int validLight(int v) { return v >= 0 && v <= 30000; }
static int validBatt(int v) { return v >= 3000 && v <= 4200; }

/* ---- Formatters: same shape, different unit strings and scales. ---- */

static int fmtTemp(char *buf, size_t n, int v) {
  int a = v < 0 ? -v : v;
  return snprintf(buf, n, "%s%d.%d C", v < 0 ? "-" : "", a / 10, a % 10);
}
static int fmtPress(char *buf, size_t n, int v) {
  return snprintf(buf, n, "%d.%d kPa", v / 10, v % 10);
}
static int fmtHumid(char *buf, size_t n, int v) {
  return snprintf(buf, n, "%d.%d %%RH", v / 10, v % 10);
}
static int fmtLight(char *buf, size_t n, int v) {
  return snprintf(buf, n, "%d lx", v);
}
static int fmtBatt(char *buf, size_t n, int v) {
  return snprintf(buf, n, "%d.%03d V", v / 1000, v % 1000);
}

/* ---- The sensor descriptor table ties them together. ---- */

struct Sensor {
  const char *name;
  uint8_t id;
  int (*calibrate)(int);
  int (*valid)(int);
  int (*format)(char *, size_t, int);
};

static const struct Sensor Sensors[] = {
  {"temperature", 0x10, calibrateTemp, validTemp, fmtTemp},
  {"pressure", 0x11, calibratePress, validPress, fmtPress},
  {"humidity", 0x12, calibrateHumid, validHumid, fmtHumid},
  {"light", 0x20, calibrateLight, validLight, fmtLight},
  {"battery", 0x30, calibrateBatt, validBatt, fmtBatt},
};

/* ---- Error codes and their strings: a sparse switch and a dense table. ---- */

static const char *errorName(int code) {
  switch (code) {
  case 0: return "ok";
  case 1: return "timeout";
  case 2: return "checksum";
  case 3: return "range";
  case 7: return "busy";
  case 12: return "no-sensor";
  case 40: return "overheat";
  case 41: return "undervolt";
  case 99: return "internal";
  default: return "unknown";
  }
}

static const char *const DayNames[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
static const uint8_t DaysInMonth[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

static int dayOfYear(int month, int day, int leap) {
  int d = day;
  for (int m = 0; m < month - 1; m++) d += DaysInMonth[m] + (m == 1 && leap);
  return d;
}

/* ---- CRC-8 (poly 0x07) over frames, bit by bit. ---- */

static uint8_t crc8(const uint8_t *p, size_t n) {
  uint8_t c = 0;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int b = 0; b < 8; b++) c = (uint8_t)((c & 0x80) ? (c << 1) ^ 0x07 : c << 1);
  }
  return c;
}

static int findSensor(uint8_t id) {
  for (int i = 0; i < COUNT(Sensors); i++)
    if (Sensors[i].id == id) return i;
  return -1;
}

/* A frame: id, raw high byte, raw low byte, crc8 of the three. */
static int handleFrame(const uint8_t f[4], char *out, size_t n) {
  if (crc8(f, 3) != f[3]) return snprintf(out, n, "error %s", errorName(2));
  int s = findSensor(f[0]);
  if (s < 0) return snprintf(out, n, "error %s", errorName(12));
  int raw = f[1] << 8 | f[2];
  int v = Sensors[s].calibrate(raw);
  if (!Sensors[s].valid(v)) return snprintf(out, n, "error %s", errorName(3));
  int k = snprintf(out, n, "%-11s ", Sensors[s].name);
  return k + Sensors[s].format(out + k, n - (size_t)k, v);
}

int main(void) {
  char buf[64];
  static const int Raws[] = {0, 200, 820, 1111, 2047, 2600, 4000};
  for (int s = 0; s < COUNT(Sensors); s++) {
    printf("%s:", Sensors[s].name);
    for (int r = 0; r < COUNT(Raws); r++) {
      Sensors[s].format(buf, sizeof buf, Sensors[s].calibrate(Raws[r]));
      printf(" [%s]", buf);
    }
    printf("\n");
  }
  uint8_t frames[8][4] = {
    {0x10, 0x03, 0x20, 0}, {0x11, 0x05, 0xDC, 0}, {0x12, 0x02, 0x00, 0}, {0x20, 0x07, 0xD0, 0},
    {0x30, 0x0A, 0x00, 0}, {0x44, 0x00, 0x01, 0}, {0x10, 0x00, 0x10, 0}, {0x11, 0x01, 0x00, 0},
  };
  for (int i = 0; i < 8; i++) {
    frames[i][3] = crc8(frames[i], 3);
    if (i == 6) frames[i][3] ^= 0x5A; /* corrupt one frame */
    handleFrame(frames[i], buf, sizeof buf);
    printf("frame %d: %s\n", i, buf);
  }
  static const int Codes[] = {0, 1, 2, 3, 5, 7, 12, 40, 41, 42, 99};
  for (int i = 0; i < COUNT(Codes); i++) printf("%d=%s ", Codes[i], errorName(Codes[i]));
  printf("\n");
  /* 2024-01-01 was a Monday. */
  printf("day %d of 2024 is a %s\n", dayOfYear(3, 1, 1), DayNames[(dayOfYear(3, 1, 1) - 1) % 7]);
  printf("day %d of 2023\n", dayOfYear(12, 31, 0));
  return 0;
}
