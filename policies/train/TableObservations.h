// Value tables store the Autophase observation their measuring tool computed; a model that
// reads IR2Vec (or both) is trained and scored on the same rows re-observed from the corpus's
// modules (by hash), with the same code the compiler runs (ModuleObservation.h).
#pragma once

#include "policies/ModuleObservation.h"
#include "policies/train/SequenceValue.h"
#include "llvm/Support/Error.h"
#include <string>

namespace smartcc {

// Rewrites every row's observation as K's. CorpusDir holds the harvested modules
// (CorpusDir/bitcode/<h2>/<hash>.bc); a row whose module is missing or unreadable is an error
// naming it. Vocab is needed when K uses IR2Vec. Autophase leaves the table as it is.
llvm::Error observeTable(ValueTable &T, ObservationKind K, const std::string &CorpusDir,
                         const IR2VecVocabulary *Vocab);

} // namespace smartcc
