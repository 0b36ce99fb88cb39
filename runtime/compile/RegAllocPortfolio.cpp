#include "runtime/compile/RegAllocPortfolio.h"
#include "policies/regalloc/MLRegAllocAdvisor.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <cmath>

using namespace llvm;

namespace smartcc {
namespace {

struct Allocation {
  SmallString<0> Object;
  RegAllocCost Cost;
  RegAllocLog Log;
};

MemoryBufferRef bufferOf(StringRef Object) { return MemoryBufferRef(Object, "<allocation>"); }

Error allocate(Module &M, const RegAllocPolicy &Policy, const RegAllocPlan &Plan,
               EmitObjectFn Emit, Allocation &Out) {
  ScopedMLRegAlloc Scope(Policy, &Out.Log, &Plan);
  ScopedRegAllocCost Measure(M.getContext(), Out.Cost);
  return Emit(M, Out.Object);
}

// Turns every function definition of M not in Keep into a declaration. Functions an alias or
// an ifunc points to keep their bodies: an alias of a declaration is not valid IR.
void keepOnlyBodiesOf(Module &M, const StringSet<> &Keep) {
  SmallPtrSet<const GlobalObject *, 8> Aliased;
  for (const GlobalAlias &A : M.aliases())
    if (const GlobalObject *O = A.getAliaseeObject())
      Aliased.insert(O);
  for (const GlobalIFunc &I : M.ifuncs())
    if (const Function *R = I.getResolverFunction())
      Aliased.insert(R);
  for (Function &F : M)
    if (!F.isDeclaration() && !Keep.contains(F.getName()) && !Aliased.contains(&F)) {
      F.deleteBody(); // external linkage: a declaration may have no other
      F.setComdat(nullptr);
      F.setVisibility(GlobalValue::DefaultVisibility);
      F.setDSOLocal(false);
    }
}

} // namespace

Expected<StringMap<uint64_t>> functionBytes(StringRef Object) {
  Expected<std::map<std::string, uint64_t>> Sizes = functionSizes(bufferOf(Object));
  if (!Sizes)
    return Sizes.takeError();
  StringMap<uint64_t> Bytes;
  for (const auto &[Name, Size] : *Sizes)
    Bytes[Name] = Size;
  return Bytes;
}

StringSet<> costlyFunctions(const StringMap<double> &GreedyPerFunction) {
  StringSet<> Costly;
  for (const auto &[Name, Cost] : GreedyPerFunction)
    if (Cost > 0)
      Costly.insert(Name);
  return Costly;
}

Expected<std::vector<AllocationFigures>> headCosts(const Module &M, const RegAllocPolicy &Policy,
                                                   const StringSet<> &Costly, EmitObjectFn Emit) {
  std::vector<AllocationFigures> Costs;
  for (int H = 0; H < int(Policy.heads()); ++H) {
    std::unique_ptr<Module> Copy = CloneModule(M);
    keepOnlyBodiesOf(*Copy, Costly);
    Allocation A;
    if (Error E = allocate(*Copy, Policy, RegAllocPlan::wholeModule(H), Emit, A))
      return std::move(E);
    Expected<StringMap<uint64_t>> Bytes = functionBytes(A.Object);
    if (!Bytes)
      return Bytes.takeError();
    Costs.push_back({std::move(A.Cost), std::move(*Bytes)});
  }
  return Costs;
}

HeadChoice chooseHeads(const StringMap<double> &GreedyPerFunction,
                       const StringMap<uint64_t> &GreedyBytes, double GreedyTotal,
                       ArrayRef<const AllocationFigures *> Heads, double MaxGrowth) {
  // Each costly function's allocations: greedy's, then every head's whose size is known and
  // whose cost is not higher.
  struct Option {
    int Head;
    double Cost;
    int64_t Growth; // bytes over greedy's allocation of the function
  };
  struct Function {
    StringRef Name;
    std::vector<Option> Options;
    size_t Chosen = 0;
    const Option &chosen() const { return Options[Chosen]; }
  };
  std::vector<Function> Functions;
  HeadChoice C;
  C.Cost = C.HeadsOnlyCost = GreedyTotal;
  for (const auto &[Name, G] : GreedyPerFunction) {
    if (!(G > 0))
      continue;
    Function F{Name, {{RegAllocPlan::Greedy, G, 0}}};
    double BestOfHeads = Heads.empty() ? G : HUGE_VAL;
    auto GB = GreedyBytes.find(Name);
    for (size_t H = 0; H < Heads.size(); ++H) {
      double Cost = Heads[H]->Cost.costOf(Name);
      BestOfHeads = std::min(BestOfHeads, Cost);
      auto HB = Heads[H]->Bytes.find(Name);
      // No function is allocated at a higher cost than greedy's, not even to save bytes.
      if (Cost <= G && GB != GreedyBytes.end() && HB != Heads[H]->Bytes.end())
        F.Options.push_back({int(H), Cost, int64_t(HB->second) - int64_t(GB->second)});
    }
    C.HeadsOnlyCost += BestOfHeads - G;
    // The cheapest; on a tie the smaller, then greedy and the lower head.
    for (size_t O = 1; O < F.Options.size(); ++O) {
      const Option &A = F.Options[O], &B = F.chosen();
      if (A.Cost < B.Cost || (A.Cost == B.Cost && A.Growth < B.Growth))
        F.Chosen = O;
    }
    Functions.push_back(std::move(F));
  }
  // Deterministic order for the trades below (a StringMap's order is its hash's).
  llvm::sort(Functions, [](const Function &A, const Function &B) { return A.Name < B.Name; });
  int64_t Growth = 0;
  for (const Function &F : Functions)
    Growth += F.chosen().Growth;
  uint64_t ModuleBytes = 0;
  for (const auto &[Name, Bytes] : GreedyBytes)
    ModuleBytes += Bytes;
  const int64_t Allowed = growthAllowance(ModuleBytes, MaxGrowth);
  // Bytes are a budget over the module: while the choice would grow it past the allowance,
  // give up the trade that costs least per byte it saves (greedy's allocation, growth 0, is
  // always there, so this ends at most with every function greedy's).
  while (Growth > Allowed) {
    Function *BestF = nullptr;
    size_t BestO = 0;
    double BestRate = HUGE_VAL;
    int64_t BestSaved = 0;
    for (Function &F : Functions)
      for (size_t O = 0; O < F.Options.size(); ++O) {
        int64_t Saved = F.chosen().Growth - F.Options[O].Growth;
        if (Saved <= 0)
          continue;
        double Rate = (F.Options[O].Cost - F.chosen().Cost) / double(Saved);
        if (Rate < BestRate || (Rate == BestRate && Saved > BestSaved))
          BestF = &F, BestO = O, BestRate = Rate, BestSaved = Saved;
      }
    Growth -= BestSaved;
    BestF->Chosen = BestO;
  }
  for (const Function &F : Functions) {
    C.Cost += F.chosen().Cost - F.Options.front().Cost;
    if (F.chosen().Head != RegAllocPlan::Greedy)
      C.Plan.Heads[F.Name] = F.chosen().Head;
  }
  return C;
}

HeadChoice chooseHeads(const StringMap<double> &GreedyPerFunction,
                       const StringMap<uint64_t> &GreedyBytes, double GreedyTotal,
                       const std::vector<AllocationFigures> &Heads, double MaxGrowth) {
  std::vector<const AllocationFigures *> Ptrs;
  for (const AllocationFigures &H : Heads)
    Ptrs.push_back(&H);
  return chooseHeads(GreedyPerFunction, GreedyBytes, GreedyTotal, Ptrs, MaxGrowth);
}

int64_t growthAllowance(uint64_t Bytes, double MaxGrowth) {
  return MaxGrowth > 0 ? int64_t(std::floor(double(Bytes) * MaxGrowth)) : 0;
}

Expected<PortfolioAllocation> allocatePerFunction(Module &M, const RegAllocPolicy &Policy,
                                                  EmitObjectFn Emit, double MaxGrowth) {
  PortfolioAllocation Result;
  // LLVM's priorities first, on the whole module: they tell which functions cost anything.
  Allocation Greedy;
  {
    std::unique_ptr<Module> Copy = CloneModule(M);
    if (Error E = allocate(*Copy, Policy, RegAllocPlan::wholeModule(RegAllocPlan::Greedy), Emit,
                           Greedy))
      return std::move(E);
    ++Result.Codegens;
  }
  Result.GreedyCost = Result.HeadsOnlyCost = Greedy.Cost.weighted();
  const StringSet<> Costly = costlyFunctions(Greedy.Cost.PerFunction);
  Result.Functions = unsigned(Costly.size());
  auto TakeGreedy = [&]() {
    Result.Object = std::move(Greedy.Object);
    Result.Cost = std::move(Greedy.Cost);
    Result.Log = Greedy.Log;
    Result.Plan = RegAllocPlan::wholeModule(RegAllocPlan::Greedy);
    return std::move(Result);
  };
  if (Costly.empty() || Policy.heads() == 0)
    return TakeGreedy();
  Expected<std::vector<AllocationFigures>> Heads = headCosts(M, Policy, Costly, Emit);
  if (!Heads)
    return Heads.takeError();
  Result.Codegens += unsigned(Heads->size());
  Expected<StringMap<uint64_t>> GreedyBytes = functionBytes(Greedy.Object);
  if (!GreedyBytes)
    return GreedyBytes.takeError();
  HeadChoice Choice =
      chooseHeads(Greedy.Cost.PerFunction, *GreedyBytes, Result.GreedyCost, *Heads, MaxGrowth);
  Result.HeadsOnlyCost = Choice.HeadsOnlyCost;
  if (Choice.Plan.Heads.empty())
    return TakeGreedy();

  Allocation Mixed;
  if (Error E = allocate(M, Policy, Choice.Plan, Emit, Mixed))
    return std::move(E);
  ++Result.Codegens;
  // The mix is measured, not assumed: should it not be cheaper, or be larger than the
  // allowance, LLVM's allocation stays.
  if (!(Mixed.Cost.weighted() < Result.GreedyCost))
    return TakeGreedy();
  Expected<ObjectSize> GreedySize = measureObject(bufferOf(Greedy.Object));
  if (!GreedySize)
    return GreedySize.takeError();
  Expected<ObjectSize> MixedSize = measureObject(bufferOf(Mixed.Object));
  if (!MixedSize)
    return MixedSize.takeError();
  const uint64_t GreedyImage = GreedySize->linkedImageBytes();
  if (int64_t(MixedSize->linkedImageBytes()) >
      int64_t(GreedyImage) + growthAllowance(GreedyImage, MaxGrowth))
    return TakeGreedy();
  Result.Object = std::move(Mixed.Object);
  Result.Cost = std::move(Mixed.Cost);
  Result.Log = Mixed.Log;
  Result.FunctionsChanged = unsigned(Choice.Plan.Heads.size());
  Result.Plan = std::move(Choice.Plan);
  return std::move(Result);
}

} // namespace smartcc
