#include "runtime/observe/Harvester.h"
#include "runtime/candidates/CandidateRunner.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

namespace {

// Bitcode with the module's own name and source file cleared, restored afterwards.
SmallString<0> normalizedBitcode(Module &M) {
  std::string Id = M.getModuleIdentifier(), Source = M.getSourceFileName();
  M.setModuleIdentifier("");
  M.setSourceFileName("");
  SmallString<0> Buffer;
  raw_svector_ostream OS(Buffer);
  WriteBitcodeToFile(M, OS);
  M.setModuleIdentifier(Id);
  M.setSourceFileName(Source);
  return Buffer;
}

std::string hashOf(StringRef Bytes) {
  std::array<uint8_t, 32> H = SHA256::hash(arrayRefFromStringRef(Bytes));
  return toHex(ArrayRef<uint8_t>(H).take_front(16), /*LowerCase=*/true);
}

// Writes Bytes to Path unless it already exists; concurrent writers of the same content race
// harmlessly because the file appears whole, by rename.
Error writeOnce(StringRef Path, StringRef Bytes) {
  if (sys::fs::exists(Path))
    return Error::success();
  if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Path)))
    return errorCodeToError(EC);
  SmallString<256> Temp;
  int Fd;
  if (std::error_code EC = sys::fs::createUniqueFile(Path + ".%%%%%%.tmp", Fd, Temp))
    return errorCodeToError(EC);
  raw_fd_ostream OS(Fd, /*shouldClose=*/true);
  OS << Bytes;
  OS.close();
  if (OS.has_error() || sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return createStringError(inconvertibleErrorCode(), "cannot write %s", Path.str().c_str());
  }
  return Error::success();
}

} // namespace

std::string normalizedModuleHash(Module &M) { return hashOf(normalizedBitcode(M).str()); }

Expected<std::string> harvestModule(Module &M, const HarvestContext &Ctx) {
  SmallString<0> Bitcode = normalizedBitcode(M);
  std::string Hash = hashOf(Bitcode.str());
  SmallString<256> BC(Ctx.Dir), Meta(Ctx.Dir), Index(Ctx.Dir);
  sys::path::append(BC, "bitcode", Hash.substr(0, 2), Hash + ".bc");
  sys::path::append(Meta, "meta", Hash + ".json");
  sys::path::append(Index, "index.jsonl");
  if (Error E = writeOnce(BC, Bitcode.str()))
    return std::move(E);

  json::Array Args;
  for (const std::string &A : Ctx.CC1Args)
    Args.push_back(A);
  json::Object Record{{"hash", Hash},
                      {"source", Ctx.Source},
                      {"directory", Ctx.Directory},
                      {"package", Ctx.Package},
                      {"target", Ctx.Target},
                      {"level", Ctx.Level},
                      {"ir_instructions", int64_t(countIRInstructions(M))},
                      {"bitcode_bytes", int64_t(Bitcode.size())}};
  std::string IndexLine;
  raw_string_ostream(IndexLine) << json::Value(json::Object(Record)) << "\n";
  Record["cc1_args"] = std::move(Args);
  std::string MetaText;
  raw_string_ostream(MetaText) << json::Value(std::move(Record)) << "\n";
  if (Error E = writeOnce(Meta, MetaText))
    return std::move(E);
  int Fd = ::open(Index.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (Fd < 0)
    return errorCodeToError(std::error_code(errno, std::generic_category()));
  bool Ok = ::write(Fd, IndexLine.data(), IndexLine.size()) == ssize_t(IndexLine.size());
  ::close(Fd);
  if (!Ok)
    return createStringError(inconvertibleErrorCode(), "cannot append to %s", Index.c_str());
  return Hash;
}

} // namespace smartcc
