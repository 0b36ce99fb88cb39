#include "policies/train/TableObservations.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace smartcc {

Error observeTable(ValueTable &T, ObservationKind K, const std::string &CorpusDir,
                   const IR2VecVocabulary *Vocab) {
  if (K == ObservationKind::Autophase)
    return Error::success();
  if (!Vocab)
    return createStringError(inconvertibleErrorCode(), "no IR2Vec vocabulary");
  if (CorpusDir.empty())
    return createStringError(inconvertibleErrorCode(),
                             "observation '" + observationName(K) +
                                 "' re-reads the table's modules: give --corpus");
  for (ValueTableRow &R : T.Rows) {
    SmallString<256> Path(CorpusDir);
    sys::path::append(Path, "bitcode", StringRef(R.Hash).take_front(2), R.Hash + ".bc");
    LLVMContext Ctx;
    SMDiagnostic Diag;
    std::unique_ptr<Module> M = parseIRFile(Path, Diag, Ctx);
    if (!M)
      return createStringError(inconvertibleErrorCode(),
                               "module " + R.Hash + " of the table: " + Path + ": " +
                                   Diag.getMessage());
    // The table's Autophase part is what the compiler computes too (log1p of the counts of the
    // same module), so only IR2Vec's part is computed here.
    std::vector<float> Autophase = R.Obs;
    R.Obs = combineObservation(K, Autophase, moduleObservation(*M, ObservationKind::IR2Vec, Vocab));
  }
  return Error::success();
}

} // namespace smartcc
