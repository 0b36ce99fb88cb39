#include "runtime/RegAllocPortfolio.h"
#include "policies/regalloc/MLRegAllocAdvisor.h"
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

StringSet<> costlyFunctions(const StringMap<double> &GreedyPerFunction) {
  StringSet<> Costly;
  for (const auto &[Name, Cost] : GreedyPerFunction)
    if (Cost > 0)
      Costly.insert(Name);
  return Costly;
}

Expected<std::vector<RegAllocCost>> headCosts(const Module &M, const RegAllocPolicy &Policy,
                                              const StringSet<> &Costly, EmitObjectFn Emit) {
  std::vector<RegAllocCost> Costs;
  for (int H = 0; H < int(Policy.heads()); ++H) {
    std::unique_ptr<Module> Copy = CloneModule(M);
    keepOnlyBodiesOf(*Copy, Costly);
    Allocation A;
    if (Error E = allocate(*Copy, Policy, RegAllocPlan::wholeModule(H), Emit, A))
      return std::move(E);
    Costs.push_back(std::move(A.Cost));
  }
  return Costs;
}

HeadChoice chooseHeads(const StringMap<double> &GreedyPerFunction, double GreedyTotal,
                       const std::vector<RegAllocCost> &Heads) {
  HeadChoice C;
  C.Cost = C.HeadsOnlyCost = GreedyTotal;
  for (const auto &[Name, G] : GreedyPerFunction) {
    if (!(G > 0))
      continue;
    double Best = G, BestOfHeads = Heads.empty() ? G : HUGE_VAL;
    int BestHead = RegAllocPlan::Greedy;
    for (size_t H = 0; H < Heads.size(); ++H) {
      double Cost = Heads[H].costOf(Name);
      BestOfHeads = std::min(BestOfHeads, Cost);
      if (Cost < Best)
        Best = Cost, BestHead = int(H);
    }
    C.Cost += Best - G;
    C.HeadsOnlyCost += BestOfHeads - G;
    if (BestHead != RegAllocPlan::Greedy)
      C.Plan.Heads[Name] = BestHead;
  }
  return C;
}

Expected<PortfolioAllocation> allocatePerFunction(Module &M, const RegAllocPolicy &Policy,
                                                  EmitObjectFn Emit) {
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
  Expected<std::vector<RegAllocCost>> Heads = headCosts(M, Policy, Costly, Emit);
  if (!Heads)
    return Heads.takeError();
  Result.Codegens += unsigned(Heads->size());
  HeadChoice Choice = chooseHeads(Greedy.Cost.PerFunction, Result.GreedyCost, *Heads);
  Result.HeadsOnlyCost = Choice.HeadsOnlyCost;
  if (Choice.Plan.Heads.empty())
    return TakeGreedy();

  Allocation Mixed;
  if (Error E = allocate(M, Policy, Choice.Plan, Emit, Mixed))
    return std::move(E);
  ++Result.Codegens;
  // The mix is measured, not assumed: should it not be cheaper, LLVM's allocation stays.
  if (!(Mixed.Cost.weighted() < Result.GreedyCost))
    return TakeGreedy();
  Result.Object = std::move(Mixed.Object);
  Result.Cost = std::move(Mixed.Cost);
  Result.Log = Mixed.Log;
  Result.FunctionsChanged = unsigned(Choice.Plan.Heads.size());
  Result.Plan = std::move(Choice.Plan);
  return std::move(Result);
}

} // namespace smartcc
