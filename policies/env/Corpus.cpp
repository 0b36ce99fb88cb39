#include "policies/env/Corpus.h"
#include "runtime/CompileLevel.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace smartcc {

Expected<std::vector<CorpusModule>> readCorpus(const std::string &Dir, const std::string &Level) {
  SmallString<256> IndexPath(Dir);
  sys::path::append(IndexPath, "index.jsonl");
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
