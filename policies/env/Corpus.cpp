#include "policies/env/Corpus.h"
#include "runtime/compile/CompileLevel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace smartcc {

namespace {

// The cc1 arguments of `clang -Oz -c` on Linux for a triple: position-independent code and
// unwind tables, as Debian's clang-22 builds by default.
std::vector<std::string> defaultCC1Args(StringRef Triple, StringRef Path) {
  std::vector<std::string> A{"-triple", Triple.str(), "-Oz", "-emit-obj",
                             "-mrelocation-model", "pic", "-pic-level", "2",
                             "-funwind-tables=2", "-vectorize-slp", "-faddrsig"};
  if (Triple.starts_with("x86_64"))
    A.insert(A.end(), {"-target-cpu", "x86-64", "-tune-cpu", "generic"});
  else if (Triple.starts_with("aarch64"))
    A.insert(A.end(), {"-target-cpu", "generic", "-target-feature", "+v8a"});
  A.insert(A.end(), {"-o", "module.o", "-x", "ir", Path.str()});
  return A;
}

// A plain folder of bitcode files (no harvest index): every *.bc below it, in path order. Each
// is judged as `clang -Oz -c` for its own triple would compile it; its hash is its content's,
// its package the first folder of its path.
Expected<std::vector<CorpusModule>> readBitcodeFolder(const std::string &Dir) {
  std::vector<std::string> Paths;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".bc")
      Paths.push_back(It->path());
  if (EC)
    return createStringError(EC, "%s: %s", Dir.c_str(), EC.message().c_str());
  llvm::sort(Paths);
  std::vector<CorpusModule> Out;
  StringSet<> Seen;
  for (const std::string &P : Paths) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(P);
    if (!Buf)
      return createStringError(Buf.getError(), "%s: %s", P.c_str(),
                               Buf.getError().message().c_str());
    Expected<std::string> Triple = getBitcodeTargetTriple((*Buf)->getMemBufferRef());
    if (!Triple)
      return createStringError(inconvertibleErrorCode(), "%s: not LLVM bitcode: %s", P.c_str(),
                               toString(Triple.takeError()).c_str());
    if (Triple->empty())
      return createStringError(inconvertibleErrorCode(), "%s: the module has no target triple",
                               P.c_str());
    CorpusModule C;
    MD5 Hash;
    Hash.update((*Buf)->getBuffer());
    MD5::MD5Result R = Hash.final();
    C.Hash = R.digest().str().str();
    if (!Seen.insert(C.Hash).second)
      continue; // the same module twice: once is enough
    StringRef Rel = StringRef(P).drop_front(Dir.size()).ltrim('/');
    auto [First, Rest] = Rel.split('/');
    C.Package = Rest.empty() ? "" : First.str();
    C.Source = Rel.str();
    C.Directory = Dir;
    C.Target = *Triple;
    C.Level = "Oz";
    C.Bench.Name = Rel.str();
    C.Bench.BitcodePath = P;
    C.Bench.CC1Args = defaultCC1Args(*Triple, P);
    Out.push_back(std::move(C));
  }
  if (Out.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: neither a harvested corpus (index.jsonl) nor a folder of .bc "
                             "files",
                             Dir.c_str());
  return Out;
}

} // namespace

Expected<std::vector<CorpusModule>> readCorpus(const std::string &Dir, const std::string &Level) {
  SmallString<256> IndexPath(Dir);
  sys::path::append(IndexPath, "index.jsonl");
  if (!sys::fs::exists(IndexPath) && sys::fs::is_directory(Dir))
    return Level.empty() || Level == "Oz" ? readBitcodeFolder(Dir)
                                          : std::vector<CorpusModule>();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Index = MemoryBuffer::getFile(IndexPath);
  if (!Index)
    return createStringError(Index.getError(), "%s: %s", IndexPath.c_str(),
                             Index.getError().message().c_str());
  std::vector<CorpusModule> Out;
  StringSet<> Seen;
  StringRef Rest = (*Index)->getBuffer();
  for (unsigned LineNo = 1; !Rest.empty(); ++LineNo) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    if (Line.trim().empty())
      continue;
    Expected<json::Value> V = json::parse(Line);
    if (!V)
      return createStringError(inconvertibleErrorCode(), "%s:%u: %s", IndexPath.c_str(), LineNo,
                               toString(V.takeError()).c_str());
    const json::Object *O = V->getAsObject();
    std::string Hash = O ? O->getString("hash").value_or("").str() : "";
    if (Hash.size() < 2 || !Seen.insert(Hash).second)
      continue;
    SmallString<256> MetaPath(Dir), BC(Dir);
    sys::path::append(MetaPath, "meta", Hash + ".json");
    sys::path::append(BC, "bitcode", Hash.substr(0, 2), Hash + ".bc");
    ErrorOr<std::unique_ptr<MemoryBuffer>> Meta = MemoryBuffer::getFile(MetaPath);
    if (!Meta)
      continue; // a compile interrupted between its bitcode and its record
    Expected<json::Value> M = json::parse((*Meta)->getBuffer());
    if (!M || !M->getAsObject())
      return createStringError(inconvertibleErrorCode(), "%s: malformed", MetaPath.c_str());
    const json::Object &MO = *M->getAsObject();
    CorpusModule C;
    C.Hash = Hash;
    C.Package = MO.getString("package").value_or("").str();
    C.Source = MO.getString("source").value_or("").str();
    C.Directory = MO.getString("directory").value_or("").str();
    C.Target = MO.getString("target").value_or("").str();
    C.Level = MO.getString("level").value_or("").str();
    if (!Level.empty() && C.Level != Level)
      continue;
    C.IRInstructions = uint64_t(MO.getInteger("ir_instructions").value_or(0));
    C.Bench.Name = (C.Package.empty() ? "" : C.Package + "/") + C.Source;
    C.Bench.BitcodePath = BC.str().str();
    if (const json::Array *Args = MO.getArray("cc1_args"))
      for (const json::Value &A : *Args)
        C.Bench.CC1Args.push_back(A.getAsString().value_or("").str());
    // A CompilerGym-style module (harvested at -O0 without optnone) is judged as CompilerGym
    // judges it: against -Oz's pipeline and code generation run on that same -O0 code. Its
    // recorded arguments say -O0, under which "clang's pipeline" would be -O0's and every
    // reward would be measured against unoptimized code. The IR keeps -O0's attributes
    // (noinline, no minsize), as in `opt -Oz` on CompilerGym's bitcode.
    if (C.Level == "O0")
      C.Bench.CC1Args = cc1ArgsAtLevel(std::move(C.Bench.CC1Args), "Oz");
    Out.push_back(std::move(C));
  }
  return Out;
}

Error keepListedModules(std::vector<CorpusModule> &Modules, const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> List = MemoryBuffer::getFile(Path);
  if (!List)
    return createStringError(List.getError(), "%s: %s", Path.c_str(),
                             List.getError().message().c_str());
  StringSet<> Wanted;
  StringRef Rest = (*List)->getBuffer();
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    if (!Line.trim().empty())
      Wanted.insert(Line.trim());
  }
  llvm::erase_if(Modules, [&](const CorpusModule &C) { return !Wanted.contains(C.Hash); });
  return Error::success();
}

} // namespace smartcc
