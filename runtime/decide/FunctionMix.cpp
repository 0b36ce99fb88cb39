#include "runtime/decide/FunctionMix.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <limits>
#include <optional>

using namespace llvm;

namespace smartcc {
namespace {

// The global values a function body or an initializer refers to, directly or through constant
// expressions. Sets Blocked when the body takes a block's address (blockaddress constants tie a
// body to its own blocks: not worth the risk of moving).
struct References {
  SetVector<const GlobalValue *> Globals;
  bool Blocked = false;

  void visit(const Value *V, SmallPtrSetImpl<const Constant *> &Seen) {
    if (const auto *GV = dyn_cast<GlobalValue>(V)) {
      Globals.insert(GV);
      return;
    }
    if (isa<BlockAddress>(V) || isa<DSOLocalEquivalent>(V) || isa<NoCFIValue>(V)) {
      Blocked = true;
      return;
    }
    const auto *C = dyn_cast<Constant>(V);
    if (!C || !Seen.insert(C).second)
      return;
    for (const Use &Op : C->operands())
      visit(Op.get(), Seen);
  }
};

References referencesOf(const GlobalObject &GO) {
  References R;
  SmallPtrSet<const Constant *, 32> Seen;
  if (const auto *F = dyn_cast<Function>(&GO)) {
    if (F->hasPersonalityFn())
      R.visit(F->getPersonalityFn(), Seen);
    for (const Instruction &I : instructions(*F))
      for (const Use &Op : I.operands())
        R.visit(Op.get(), Seen);
  } else if (const auto *G = dyn_cast<GlobalVariable>(&GO)) {
    if (G->hasInitializer())
      R.visit(G->getInitializer(), Seen);
  }
  return R;
}

// A version's local code and data that can travel with a transplanted body: local functions
// whose address identity does not matter and local constants whose address does not either.
bool copyableLocal(const GlobalValue &GV) {
  if (const auto *F = dyn_cast<Function>(&GV))
    return !F->isDeclaration() && (F->hasAtLeastLocalUnnamedAddr() || !F->hasAddressTaken());
  if (const auto *G = dyn_cast<GlobalVariable>(&GV))
    return G->hasInitializer() && G->isConstant() && !G->isExternallyInitialized() &&
           G->hasAtLeastLocalUnnamedAddr();
  return false; // aliases, ifuncs
}

// What moving Root's body from Version into Base would bring along: the local functions and
// constants it reaches (through other locals) and the non-local definitions Base lacks
// (discardable ones, e.g. inline functions Base inlined everywhere). nullopt when the body
// cannot move.
std::optional<SetVector<const GlobalValue *>> closureOf(const Function &Root, const Module &Base) {
  SetVector<const GlobalValue *> Closure;
  SmallVector<const GlobalObject *, 16> Work{&Root};
  SmallPtrSet<const GlobalObject *, 16> Walked{&Root};
  while (!Work.empty()) {
    const GlobalObject *GO = Work.pop_back_val();
    References R = referencesOf(*GO);
    if (R.Blocked)
      return std::nullopt;
    for (const GlobalValue *GV : R.Globals) {
      bool Travels;
      if (GV->hasLocalLinkage()) {
        if (!copyableLocal(*GV))
          return std::nullopt;
        Travels = true;
      } else if (const GlobalValue *InBase = Base.getNamedValue(GV->getName())) {
        if (InBase->getValueID() != GV->getValueID())
          return std::nullopt; // a function here, an alias there: leave it
        if (InBase->getValueType() != GV->getValueType() && isa<Function>(GV))
          return std::nullopt; // a different signature under the same name: leave it
        Travels = false;
      } else if (GV->isDeclaration()) {
        Travels = true; // becomes a declaration in the mix
      } else if (GV->isDiscardableIfUnused() && isa<GlobalObject>(GV)) {
        Travels = true;
      } else {
        return std::nullopt;
      }
      if (!Travels || !Closure.insert(GV))
        continue;
      if (const auto *GO2 = dyn_cast<GlobalObject>(GV))
        if (!GO2->isDeclaration() && Walked.insert(GO2).second)
          Work.push_back(GO2);
    }
  }
  return Closure;
}

bool isChoice(const Function &F) {
  return !F.isDeclaration() && !F.hasLocalLinkage() && !F.hasAvailableExternallyLinkage();
}

// What a function or constant costs in its version: all its bytes (a function's object bytes,
// a constant's allocation size) and the code among them (a function's bytes less its unwind
// entry; a constant has none). The code is kept apart because the ship rules forbid buying
// unwind-table bytes with code bytes (code_for_unwind).
struct Cost {
  double Total = 0, Code = 0, Unwind = 0;
  Cost &operator+=(const Cost &O) {
    Total += O.Total, Code += O.Code, Unwind += O.Unwind;
    return *this;
  }
};

Cost costOf(const GlobalValue &GV, const MixVersion &V) {
  if (const auto *G = dyn_cast<GlobalVariable>(&GV))
    return {G->hasInitializer() ? double(V.M->getDataLayout().getTypeAllocSize(G->getValueType()))
                                : 0.0,
            0.0, 0.0};
  std::string Name = GV.getName().str();
  auto It = V.FunctionBytes.find(Name);
  if (It == V.FunctionBytes.end())
    return {};
  auto U = V.UnwindBytes.find(Name);
  double Unwind = U == V.UnwindBytes.end() ? 0.0 : double(U->second);
  return {double(It->second), double(It->second) - Unwind, Unwind};
}

// A local constant of Base with the same contents as G (constants are uniqued in a context, so
// one pointer comparison suffices): a body that moves uses Base's instead of a copy, as
// constmerge would have merged them.
using ConstantKey = std::pair<const Constant *, Type *>;

DenseMap<ConstantKey, GlobalVariable *> mergeableConstants(const Module &M) {
  DenseMap<ConstantKey, GlobalVariable *> Map;
  for (const GlobalVariable &G : M.globals())
    if (G.hasLocalLinkage() && copyableLocal(G) && !G.hasSection())
      Map.try_emplace({G.getInitializer(), G.getValueType()}, const_cast<GlobalVariable *>(&G));
  return Map;
}

GlobalVariable *sharedConstant(const GlobalValue &GV,
                               const DenseMap<ConstantKey, GlobalVariable *> &InBase) {
  const auto *G = dyn_cast<GlobalVariable>(&GV);
  if (!G || !G->hasLocalLinkage() || !G->hasInitializer() || G->hasSection())
    return nullptr;
  auto It = InBase.find({G->getInitializer(), G->getValueType()});
  if (It == InBase.end() || It->second->getAlign() != G->getAlign())
    return nullptr;
  return It->second;
}

// One version's movable functions: own bytes and what each would bring along.
struct Root {
  Cost Own;
  SetVector<const GlobalValue *> Closure;
};

std::map<std::string, Root> rootsOf(const MixVersion &V, const Module &Base) {
  std::map<std::string, Root> Roots;
  for (const Function &F : *V.M) {
    auto Bytes = V.FunctionBytes.find(F.getName().str());
    if (!isChoice(F) || Bytes == V.FunctionBytes.end())
      continue;
    if (std::optional<SetVector<const GlobalValue *>> Cl = closureOf(F, Base))
      Roots[F.getName().str()] = Root{costOf(F, V), std::move(*Cl)};
  }
  return Roots;
}

// Base's locals that stay whatever moves: those reached from global variables (tables of
// function pointers, llvm.used) and from the functions that cannot move.
DenseSet<const GlobalValue *> pinnedLocals(const Module &Base,
                                           const std::map<std::string, Root> &Roots) {
  DenseSet<const GlobalValue *> Pinned;
  SmallVector<const GlobalObject *, 32> Work;
  for (const GlobalVariable &G : Base.globals())
    Work.push_back(&G);
  for (const Function &F : Base)
    if (!F.isDeclaration() && !F.hasLocalLinkage() && !Roots.count(F.getName().str()))
      Work.push_back(&F);
  for (const GlobalAlias &A : Base.aliases())
    if (const auto *GO = dyn_cast<GlobalObject>(A.getAliaseeObject()))
      Work.push_back(GO);
  SmallPtrSet<const GlobalObject *, 32> Walked(Work.begin(), Work.end());
  while (!Work.empty()) {
    const GlobalObject *GO = Work.pop_back_val();
    for (const GlobalValue *GV : referencesOf(*GO).Globals)
      if (GV->hasLocalLinkage() && Pinned.insert(GV).second)
        if (const auto *Next = dyn_cast<GlobalObject>(GV); Next && Walked.insert(Next).second)
          Work.push_back(Next);
  }
  return Pinned;
}

// Removes local functions and variables nothing refers to any more (the base's helpers of a
// body that moved), as globaldce would.
void removeDeadLocals(Module &M) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (F.hasLocalLinkage() && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
    for (GlobalVariable &G : make_early_inc_range(M.globals()))
      if (G.hasLocalLinkage() && G.use_empty()) {
        G.eraseFromParent();
        Changed = true;
      }
  }
}

// A new global in Mix standing for From (a local copy, a discardable definition, or a
// declaration), without body or initializer yet.
GlobalValue *declareIn(Module &Mix, const GlobalValue &From) {
  GlobalObject *New = nullptr;
  if (const auto *F = dyn_cast<Function>(&From)) {
    Function *NF = Function::Create(F->getFunctionType(), F->getLinkage(),
                                    F->getAddressSpace(), F->getName(), &Mix);
    NF->copyAttributesFrom(F);
    NF->setPersonalityFn(nullptr); // set by the body's cloning, mapped into Mix
    New = NF;
  } else {
    const auto *G = cast<GlobalVariable>(&From);
    auto *NG = new GlobalVariable(Mix, G->getValueType(), G->isConstant(), G->getLinkage(),
                                  nullptr, G->getName(), nullptr, G->getThreadLocalMode(),
                                  G->getAddressSpace(), G->isExternallyInitialized());
    NG->copyAttributesFrom(G);
    New = NG;
  }
  if (const Comdat *C = cast<GlobalObject>(From).getComdat()) {
    Comdat *NC = Mix.getOrInsertComdat(C->getName());
    NC->setSelectionKind(C->getSelectionKind());
    New->setComdat(NC);
  }
  return New;
}

void cloneBody(Function &To, const Function &From, ValueToValueMapTy &VMap) {
  auto ToArg = To.arg_begin();
  for (const Argument &A : From.args())
    VMap[&A] = &*ToArg++;
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(&To, &From, VMap, CloneFunctionChangeType::DifferentModule, Returns);
}

// Whether the machine outliner moved code out of this version's functions (its
// OUTLINED_FUNCTION_N are shared by callers the object does not name): their bytes then
// understate what each function needs, and moving one would not take its outlined code along.
bool hasOutlinedCode(const MixVersion &V) {
  for (const auto &[Name, Bytes] : V.FunctionBytes)
    if (StringRef(Name).starts_with("OUTLINED_FUNCTION_"))
      return true;
  return false;
}

} // namespace

FunctionMixPlan planFunctionMix(ArrayRef<MixVersion> Versions, unsigned Base,
                                const MixRule &Rule) {
  FunctionMixPlan Plan;
  Plan.Base = Base;
  double Code = Versions[Base].Measured.Code, Unwind = Versions[Base].Measured.Unwind;
  const Module &B = *Versions[Base].M;
  std::vector<std::map<std::string, Root>> Roots;
  for (const MixVersion &V : Versions)
    Roots.push_back(rootsOf(V, B));
  const std::map<std::string, Root> &BaseRoots = Roots[Base];
  const DenseSet<const GlobalValue *> Pinned = pinnedLocals(B, BaseRoots);
  const DenseMap<ConstantKey, GlobalVariable *> Shared = mergeableConstants(B);
  // Which movable functions reach each of Base's locals: a local goes when all of them move.
  DenseMap<const GlobalValue *, std::vector<std::string>> Reachers;
  for (const auto &[Name, R] : BaseRoots)
    for (const GlobalValue *GV : R.Closure)
      if (GV->hasLocalLinkage())
        Reachers[GV].push_back(Name);
  Plan.Considered = unsigned(BaseRoots.size());
  // Greedy: move the function whose move saves most, counting what it brings (less what its
  // version brought already) and what it frees in Base (helpers no unmoved function reaches),
  // until no move saves a byte.
  std::vector<DenseSet<const GlobalValue *>> Brought(Versions.size());
  // Base's constants that moved bodies use (merged, not copied): never freed.
  DenseSet<const GlobalValue *> Kept;
  for (;;) {
    double BestDelta = -1;
    std::optional<std::pair<std::string, unsigned>> Move;
    SmallPtrSet<const GlobalValue *, 8> MoveMerged;
    double MoveCode = 0, MoveUnwind = 0;
    for (const auto &[Name, R] : BaseRoots) {
      if (Plan.Take.count(Name))
        continue;
      const Function *F = B.getFunction(Name);
      for (unsigned I = 0; I < Versions.size(); ++I) {
        if (I == Base || Versions[I].Codegen != Versions[Base].Codegen)
          continue;
        auto It = Roots[I].find(Name);
        const Function *VF = Versions[I].M->getFunction(Name);
        if (It == Roots[I].end() || !VF || VF->getFunctionType() != F->getFunctionType())
          continue;
        if (!(Versions[I].JumpTablesCounted && Versions[Base].JumpTablesCounted) &&
            VF->getFnAttribute("no-jump-tables").getValueAsBool() !=
                F->getFnAttribute("no-jump-tables").getValueAsBool())
          continue;
        Cost Added = It->second.Own;
        SmallPtrSet<const GlobalValue *, 8> Merged; // Base's constants the body would use
        for (const GlobalValue *GV : It->second.Closure)
          if (GlobalVariable *Same = sharedConstant(*GV, Shared))
            Merged.insert(Same);
          else if (!Brought[I].count(GV))
            Added += costOf(*GV, Versions[I]);
        Cost Freed = R.Own;
        for (const GlobalValue *GV : R.Closure) {
          if (!GV->hasLocalLinkage() || Pinned.count(GV) || Kept.count(GV) || Merged.count(GV))
            continue;
          if (all_of(Reachers[GV], [&](const std::string &N) {
                return N == Name || Plan.Take.count(N);
              }))
            Freed += costOf(*GV, Versions[Base]);
        }
        // A whole byte less at least, within the rule (or, while the base breaks it, taking
        // code away).
        double Delta = Added.Total - Freed.Total;
        double NewCode = Code + Added.Code - Freed.Code;
        double NewUnwind = Unwind + Added.Unwind - Freed.Unwind;
        bool Ruled = Rule.allows(NewCode, NewUnwind) ||
                     (!Rule.allows(Code, Unwind) && NewCode < Code);
        if (Delta <= BestDelta && Ruled)
          BestDelta = Delta, Move = {Name, I}, MoveMerged = std::move(Merged),
          MoveCode = NewCode, MoveUnwind = NewUnwind;
      }
    }
    if (!Move)
      break;
    Plan.Take[Move->first] = Move->second;
    Plan.EstimatedSaving += int64_t(-BestDelta);
    Kept.insert(MoveMerged.begin(), MoveMerged.end()); // the moved body uses them: they stay
    Code = MoveCode, Unwind = MoveUnwind;
    for (const GlobalValue *GV : Roots[Move->second].at(Move->first).Closure)
      Brought[Move->second].insert(GV);
  }
  Plan.Estimated = {Versions[Base].Measured.Image - double(Plan.EstimatedSaving), Code, Unwind};
  Plan.Allowed = Rule.allows(Code, Unwind);
  return Plan;
}

FunctionMixPlan planBestFunctionMix(ArrayRef<MixVersion> Versions, const MixRule &Rule) {
  double BestVersion = std::numeric_limits<double>::infinity();
  for (const MixVersion &V : Versions)
    if (Rule.allows(V.Measured.Code, V.Measured.Unwind))
      BestVersion = std::min(BestVersion, V.Measured.Image);
  // Versions with outlined code neither give nor take functions: left out of the planning
  // by an empty byte map (nothing of theirs can be judged).
  std::vector<MixVersion> Judged(Versions.begin(), Versions.end());
  for (MixVersion &V : Judged)
    if (hasOutlinedCode(V))
      V.FunctionBytes.clear(), V.Codegen = "(outlined)";
  std::optional<FunctionMixPlan> Best;
  for (unsigned I = 0; I < Judged.size(); ++I) {
    if (Judged[I].FunctionBytes.empty() ||
        count_if(Judged, [&](const MixVersion &V) {
          return V.Codegen == Judged[I].Codegen && !V.FunctionBytes.empty();
        }) < 2)
      continue;
    FunctionMixPlan P = planFunctionMix(Judged, I, Rule);
    if (P.Take.empty() || !P.Allowed || P.Estimated.Image >= BestVersion)
      continue;
    if (!Best || P.Estimated.Image < Best->Estimated.Image)
      Best = std::move(P);
  }
  return Best ? std::move(*Best) : FunctionMixPlan{};
}

Expected<std::unique_ptr<Module>> buildFunctionMix(ArrayRef<MixVersion> Versions,
                                                   const FunctionMixPlan &Plan) {
  const Module &BaseModule = *Versions[Plan.Base].M;
  std::unique_ptr<Module> Mix = CloneModule(BaseModule);
  const DenseMap<ConstantKey, GlobalVariable *> Shared = mergeableConstants(*Mix);
  std::map<unsigned, std::vector<std::string>> ByVersion;
  for (const auto &[Name, V] : Plan.Take)
    ByVersion[V].push_back(Name);
  for (const auto &[V, Names] : ByVersion) {
    const Module &From = *Versions[V].M;
    // Everything these bodies bring, once for all of them (shared helpers are copied once).
    SetVector<const GlobalValue *> Bring;
    std::vector<std::pair<Function *, const Function *>> Roots;
    for (const std::string &Name : Names) {
      const Function *DF = From.getFunction(Name);
      Function *XF = Mix->getFunction(Name);
      if (!DF || !XF || DF->isDeclaration() || XF->isDeclaration())
        continue;
      std::optional<SetVector<const GlobalValue *>> Cl = closureOf(*DF, BaseModule);
      if (!Cl)
        continue;
      Bring.insert(Cl->begin(), Cl->end());
      Roots.push_back({XF, DF});
    }
    ValueToValueMapTy VMap;
    // Non-local names the bodies use map to the mix's own globals.
    for (const GlobalValue &GV : From.global_values())
      if (!GV.hasLocalLinkage())
        if (GlobalValue *Same = Mix->getNamedValue(GV.getName()))
          VMap[&GV] = Same;
    // A non-local another version brought already (a declaration, an inline function) is
    // shared; a declaration standing where a definition comes gets the body.
    std::vector<const GlobalValue *> Define;
    for (const GlobalValue *GV : Bring) {
      if (GlobalVariable *Merged = sharedConstant(*GV, Shared)) {
        VMap[GV] = Merged;
        continue;
      }
      GlobalValue *Same = GV->hasLocalLinkage() ? nullptr : Mix->getNamedValue(GV->getName());
      if (!Same) {
        VMap[GV] = declareIn(*Mix, *GV);
        Define.push_back(GV);
      } else if (Same->getValueID() != GV->getValueID()) {
        return createStringError(inconvertibleErrorCode(), "function mix: '%s' changed kind",
                                 GV->getName().str().c_str());
      } else {
        VMap[GV] = Same;
        if (Same->isDeclaration() && !GV->isDeclaration()) {
          Same->setLinkage(GV->getLinkage());
          Define.push_back(GV);
        }
      }
    }
    for (const GlobalValue *GV : Define) {
      if (const auto *F = dyn_cast<Function>(GV); F && !F->isDeclaration())
        cloneBody(*cast<Function>(VMap[GV]), *F, VMap);
      else if (const auto *G = dyn_cast<GlobalVariable>(GV); G && G->hasInitializer())
        cast<GlobalVariable>(VMap[GV])->setInitializer(
            MapValue(G->getInitializer(), VMap));
    }
    for (auto &[XF, DF] : Roots) {
      GlobalValue::LinkageTypes Linkage = XF->getLinkage();
      Comdat *C = XF->getComdat();
      XF->deleteBody();
      XF->setLinkage(Linkage);
      XF->setComdat(C);
      cloneBody(*XF, *DF, VMap);
      XF->setLinkage(Linkage);
      XF->setComdat(C);
    }
  }
  removeDeadLocals(*Mix);
  std::string Message;
  raw_string_ostream OS(Message);
  if (verifyModule(*Mix, &OS))
    return createStringError(inconvertibleErrorCode(), "function mix does not verify: %s",
                             Message.c_str());
  return std::move(Mix);
}

} // namespace smartcc
