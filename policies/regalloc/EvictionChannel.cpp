#include "policies/regalloc/EvictionChannel.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

const std::vector<float> *EvictionObservation::feature(StringRef Name) const {
  for (size_t I = 0; I < Names.size(); ++I)
    if (Names[I] == Name)
      return &Values[I];
  return nullptr;
}

namespace {

// Reads the compiler's stream, waking up to check Stop: the FIFO is opened read-write by the
// channel itself (so that opening never blocks), which also means it never reports EOF.
class StreamReader {
public:
  StreamReader(int FD, const std::atomic<bool> &Stop) : FD(FD), Stop(Stop) {}
  // False when stopped (or on a read error).
  bool read(char *Out, size_t N) {
    while (N) {
      if (Pos == Buffer.size() && !fill())
        return false;
      size_t Take = std::min(N, Buffer.size() - Pos);
      std::memcpy(Out, Buffer.data() + Pos, Take);
      Pos += Take, Out += Take, N -= Take;
    }
    return true;
  }
  bool line(std::string &Out) {
    Out.clear();
    char C;
    while (read(&C, 1)) {
      if (C == '\n')
        return true;
      Out += C;
    }
    return false;
  }

private:
  bool fill() {
    while (!Stop.load()) {
      pollfd P{FD, POLLIN, 0};
      int R = ::poll(&P, 1, 50);
      if (R < 0 && errno != EINTR)
        return false;
      if (R <= 0)
        continue;
      Buffer.resize(1 << 16);
      ssize_t Got = ::read(FD, Buffer.data(), Buffer.size());
      if (Got < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (Got <= 0)
        return false;
      Buffer.resize(size_t(Got));
      Pos = 0;
      return true;
    }
    return false;
  }
  int FD;
  const std::atomic<bool> &Stop;
  std::vector<char> Buffer;
  size_t Pos = 0;
};

struct TensorLayout {
  std::string Name, Type;
  size_t Elements = 1, ElementBytes = 0;
};

Expected<std::vector<TensorLayout>> parseHeader(StringRef Line) {
  Expected<json::Value> V = json::parse(Line);
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  const json::Array *Features = O ? O->getArray("features") : nullptr;
  if (!Features)
    return createStringError(inconvertibleErrorCode(), "no feature list in the header");
  std::vector<TensorLayout> Out;
  for (const json::Value &F : *Features) {
    const json::Object *FO = F.getAsObject();
    if (!FO)
      return createStringError(inconvertibleErrorCode(), "a feature is not an object");
    TensorLayout T;
    T.Name = FO->getString("name").value_or("").str();
    T.Type = FO->getString("type").value_or("").str();
    if (T.Type == "float" || T.Type == "int32_t")
      T.ElementBytes = 4;
    else if (T.Type == "int64_t" || T.Type == "double")
      T.ElementBytes = 8;
    else
      return createStringError(inconvertibleErrorCode(), "feature '%s' has type '%s'",
                               T.Name.c_str(), T.Type.c_str());
    if (const json::Array *Shape = FO->getArray("shape"))
      for (const json::Value &D : *Shape)
        T.Elements *= size_t(std::max<int64_t>(0, D.getAsInteger().value_or(0)));
    Out.push_back(std::move(T));
  }
  return Out;
}

float elementAsFloat(const char *P, const std::string &Type) {
  if (Type == "float") {
    float F;
    std::memcpy(&F, P, 4);
    return F;
  }
  if (Type == "double") {
    double D;
    std::memcpy(&D, P, 8);
    return float(D);
  }
  if (Type == "int32_t") {
    int32_t I;
    std::memcpy(&I, P, 4);
    return float(I);
  }
  int64_t I;
  std::memcpy(&I, P, 8);
  return float(I);
}

// As runtime/support/FileDescriptorIO.h's, which this library (below runtime) cannot call.
bool writeAll(int FD, const char *P, size_t N) {
  while (N) {
    ssize_t W = ::write(FD, P, N);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    P += W, N -= size_t(W);
  }
  return true;
}

} // namespace

Expected<std::unique_ptr<EvictionChannel>> EvictionChannel::open(Chooser Choose) {
  std::unique_ptr<EvictionChannel> C(new EvictionChannel());
  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("smartcc-evict", Dir))
    return createStringError(EC, "eviction channel: %s", EC.message().c_str());
  C->Dir = Dir.str().str();
  C->Base = C->Dir + "/channel";
  for (const char *Suffix : {".in", ".out"})
    if (::mkfifo((C->Base + Suffix).c_str(), 0600) != 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                               "eviction channel: mkfifo %s%s: %s", C->Base.c_str(), Suffix,
                               std::strerror(errno));
  // Read-write on our side: opening never blocks, whenever the compiler opens its ends.
  C->ToCompiler = ::open((C->Base + ".in").c_str(), O_RDWR | O_CLOEXEC);
  C->FromCompiler = ::open((C->Base + ".out").c_str(), O_RDWR | O_CLOEXEC);
  if (C->ToCompiler < 0 || C->FromCompiler < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "eviction channel: open %s: %s", C->Base.c_str(),
                             std::strerror(errno));
  C->Choose = std::move(Choose);
  C->Thread = std::thread([Raw = C.get()] { Raw->serve(); });
  return std::move(C);
}

EvictionChannel::~EvictionChannel() {
  Stop = true;
  if (Thread.joinable())
    Thread.join();
  for (int FD : {ToCompiler, FromCompiler})
    if (FD >= 0)
      ::close(FD);
  removeNames();
}

void EvictionChannel::removeNames() {
  if (Dir.empty())
    return;
  // unlink/rmdir, not sys::fs::remove: LLVM's refuses anything but files, directories and
  // links, so it leaves FIFOs behind.
  ::unlink((Base + ".in").c_str());
  ::unlink((Base + ".out").c_str());
  ::rmdir(Dir.c_str());
  Dir.clear();
}

void EvictionChannel::serve() {
  StreamReader In(FromCompiler, Stop);
  auto Fail = [&](std::string Message) {
    Error = "eviction channel: " + std::move(Message);
    Failed = true;
  };
  std::string Line;
  if (!In.line(Line))
    return; // stopped before the compiler opened the channel: nothing to serve
  Expected<std::vector<TensorLayout>> Layout = parseHeader(Line);
  if (!Layout)
    return Fail(toString(Layout.takeError()));
  EvictionObservation Obs;
  size_t Mask = SIZE_MAX;
  for (size_t I = 0; I < Layout->size(); ++I) {
    Obs.Names.push_back((*Layout)[I].Name);
    Obs.Values.emplace_back((*Layout)[I].Elements);
    if ((*Layout)[I].Name == "mask")
      Mask = I;
  }
  if (Mask == SIZE_MAX)
    return Fail("the advisor's features have no 'mask'");
  Obs.Positions = (*Layout)[Mask].Elements;
  std::vector<char> Raw;
  while (In.line(Line)) {
    if (Line.empty())
      continue;
    Expected<json::Value> V = json::parse(Line);
    if (!V)
      return Fail("unreadable line: " + toString(V.takeError()));
    const json::Object *O = V->getAsObject();
    if (!O || !O->get("observation"))
      continue; // {"context": F}: the next function
    for (size_t I = 0; I < Layout->size(); ++I) {
      const TensorLayout &T = (*Layout)[I];
      Raw.resize(T.Elements * T.ElementBytes);
      if (!In.read(Raw.data(), Raw.size()))
        return;
      for (size_t E = 0; E < T.Elements; ++E)
        Obs.Values[I][E] = elementAsFloat(Raw.data() + E * T.ElementBytes, T.Type);
    }
    char NL;
    if (!In.read(&NL, 1))
      return;
    if (NL != '\n')
      return Fail("an observation does not end its line");
    Obs.Legal.assign(Obs.Positions, false);
    int64_t FirstLegal = -1;
    for (size_t P = 0; P < Obs.Positions; ++P)
      if ((Obs.Legal[P] = Obs.Values[Mask][P] != 0.f) && FirstLegal < 0)
        FirstLegal = int64_t(P);
    int64_t Answer = Choose ? Choose(Obs) : FirstLegal;
    if (Answer < 0 || size_t(Answer) >= Obs.Positions || !Obs.Legal[size_t(Answer)])
      Answer = FirstLegal < 0 ? int64_t(Obs.Positions) - 1 : FirstLegal;
    if (!writeAll(ToCompiler, reinterpret_cast<const char *>(&Answer), sizeof(Answer)))
      return Fail(std::string("cannot answer: ") + std::strerror(errno));
    ++Decisions;
  }
}

} // namespace smartcc
