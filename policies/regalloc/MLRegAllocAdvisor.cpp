#include "policies/regalloc/MLRegAllocAdvisor.h"
#include "policies/regalloc/AllocatorOptions.h"
#include "policies/regalloc/EvictionChannel.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/CodeGen/LiveInterval.h"
#include "llvm/CodeGen/LiveIntervals.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/RegAllocEvictionAdvisor.h"
#include "llvm/CodeGen/RegAllocPriorityAdvisor.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/CodeGen/RegisterClassInfo.h"
#include "llvm/CodeGen/SlotIndexes.h"
#include "llvm/CodeGen/VirtRegMap.h"
#include "llvm/InitializePasses.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include <cmath>
#include <iterator>
#include <atomic>
#include <mutex>

using namespace llvm;

namespace smartcc {
namespace {

thread_local const RegAllocPolicy *CurrentPolicy = nullptr;
thread_local RegAllocLog *CurrentLog = nullptr;
thread_local const RegAllocPlan *CurrentPlan = nullptr;
PassInfo::NormalCtor_t LLVMPriorityAnalysisCtor = nullptr;
PassInfo::NormalCtor_t LLVMEvictionAnalysisCtor = nullptr;

float log1pf(double X) { return float(std::log1p(std::max(0.0, X))); }

int headFor(const MachineFunction &MF, const RegAllocPolicy &Policy, const RegAllocPlan *Plan) {
  if (Policy.isGreedy())
    return RegAllocPlan::Greedy;
  return Plan ? Plan->headFor(MF.getName()) : 0;
}

ArrayRef<std::string> optionsOf(const RegAllocPolicy &Policy, int Head) {
  return Head == RegAllocPlan::Greedy ? ArrayRef<std::string>()
                                      : Policy.headOptions(unsigned(Head));
}

// LLVM's default priority, then the policy's rescaling of its ordering bits. The allocator
// builds one per function and destroys it when the function is allocated: the head's
// allocator options hold for exactly that long (AllocatorOptions.h).
class PolicyPriorityAdvisor : public RegAllocPriorityAdvisor {
public:
  PolicyPriorityAdvisor(const MachineFunction &MF, const RAGreedy &RA, SlotIndexes *Indexes,
                        const RegAllocPolicy &Policy, RegAllocLog *Log, const RegAllocPlan *Plan)
      : RegAllocPriorityAdvisor(MF, RA, Indexes), Head(headFor(MF, Policy, Plan)),
        Options(optionsOf(Policy, Head)), Default(MF, RA, Indexes), Policy(Policy), Log(Log) {
    FunctionInstrs = std::max(1, Indexes->getZeroIndex().getApproxInstrDistance(
                                     Indexes->getLastIndex()));
  }

private:
  unsigned getPriority(const LiveInterval &LI) const override {
    unsigned Prio = static_cast<const RegAllocPriorityAdvisor &>(Default).getPriority(LI);
    // A range in the split stage has its size alone as priority (no flag bits set).
    const bool Flagged = Prio >> 24;
    const unsigned Low = Flagged ? Prio & 0xFFFFFFu : Prio;
    if (Head == RegAllocPlan::Greedy || Low >= (1u << 24)) {
      record(false);
      return Prio;
    }
    unsigned NewLow = Policy.adjust(features(LI, Prio, Low), Low, unsigned(Head));
    record(NewLow != Low);
    return Flagged ? (Prio & ~0xFFFFFFu) | NewLow : NewLow;
  }

  std::vector<float> features(const LiveInterval &LI, unsigned Prio, unsigned Low) const {
    const Register Reg = LI.reg();
    const TargetRegisterClass &RC = *MRI->getRegClass(Reg);
    unsigned UsesDefs = unsigned(std::distance(MRI->reg_nodbg_instructions(Reg).begin(),
                                               MRI->reg_nodbg_instructions(Reg).end()));
    // Bit layout of LLVM's priority (RegAllocPriorityAdvisor.cpp): 31 assign stage, 30 hint,
    // then the global bit and the class's allocation priority in an order that depends on
    // the target.
    bool Global = RegClassPriorityTrumpsGlobalness ? (Prio >> 24) & 1 : (Prio >> 29) & 1;
    unsigned ClassPrio = RegClassPriorityTrumpsGlobalness ? (Prio >> 25) & 31 : (Prio >> 24) & 31;
    float Start = 0, End = 0;
    bool Crosses = false;
    if (!LI.empty()) {
      Start = float(Indexes->getZeroIndex().getApproxInstrDistance(LI.beginIndex())) /
              float(FunctionInstrs);
      End = float(Indexes->getZeroIndex().getApproxInstrDistance(LI.endIndex())) /
            float(FunctionInstrs);
      BitVector Usable;
      Crosses = LIS->checkRegMaskInterference(LI, Usable);
    }
    return {log1pf(double(LI.getSize()) / SlotIndex::InstrDist),
            log1pf(LI.weight()),
            log1pf(LI.size()),
            log1pf(UsesDefs),
            log1pf(RegClassInfo.getNumAllocatableRegs(&RC)),
            float(!LI.empty() && LIS->intervalIsInOneMBB(LI) != nullptr),
            float(VRM->hasKnownPreference(Reg)),
            float((Prio >> 31) & 1),
            float(Global),
            float(ClassPrio) / 31.f,
            log1pf(Low),
            float(LI.isSpillable()),
            Start,
            End,
            float(VRM->getOriginal(Reg) != Reg),
            log1pf(FunctionInstrs),
            float(Crosses)};
  }

  void record(bool Changed) const {
    if (!Log)
      return;
    ++Log->Ranges;
    Log->Changed += Changed;
  }

  int Head; // RegAllocPlan::Greedy: LLVM's priorities for this function
  FunctionAllocatorOptions Options;
  DefaultPriorityAdvisor Default;
  const RegAllocPolicy &Policy;
  RegAllocLog *Log;
  int FunctionInstrs = 1;
};

class PolicyPriorityProvider : public RegAllocPriorityAdvisorProvider {
public:
  PolicyPriorityProvider(const RegAllocPolicy &Policy, RegAllocLog *Log,
                         const RegAllocPlan *Plan)
      : RegAllocPriorityAdvisorProvider(AdvisorMode::Default), Policy(Policy), Log(Log),
        Plan(Plan) {}
  std::unique_ptr<RegAllocPriorityAdvisor> getAdvisor(const MachineFunction &MF,
                                                      const RAGreedy &RA,
                                                      SlotIndexes &SI) override {
    return std::make_unique<PolicyPriorityAdvisor>(MF, RA, &SI, Policy, Log, Plan);
  }

private:
  const RegAllocPolicy &Policy;
  RegAllocLog *Log;
  const RegAllocPlan *Plan;
};

// Shares the base's pass ID, so the greedy allocator's getAnalysis finds it.
class PolicyPriorityAnalysis : public RegAllocPriorityAdvisorAnalysisLegacy {
public:
  PolicyPriorityAnalysis(const RegAllocPolicy &Policy, RegAllocLog *Log,
                         const RegAllocPlan *Plan)
      : RegAllocPriorityAdvisorAnalysisLegacy(AdvisorMode::Default) {
    Provider = std::make_unique<PolicyPriorityProvider>(Policy, Log, Plan);
  }
};

Pass *createPriorityAnalysis() {
  if (CurrentPolicy)
    return new PolicyPriorityAnalysis(*CurrentPolicy, CurrentLog, CurrentPlan);
  // Outside a scope: LLVM's default priorities, through smartcc's advisor so that the
  // allocation takes the options lock (another thread may be allocating with a head's
  // options). An advisor mode the user asked for (-regalloc-enable-priority-advisor) is LLVM's.
  static cl::Option *Mode = cl::getRegisteredOptions().lookup("regalloc-enable-priority-advisor");
  if (Mode && Mode->getNumOccurrences())
    return LLVMPriorityAnalysisCtor();
  static const RegAllocPolicy Greedy = RegAllocPolicy::greedy();
  return new PolicyPriorityAnalysis(Greedy, nullptr, nullptr);
}

// Eviction heads. LLVM's ML eviction advisor in release mode makes its model runner at its
// first advisor, from the process-wide option naming the channel; several threads may be
// starting one at once (the trainer, smartcc-eval), so the option is set and the runner made
// under this lock, and the option is cleared again.
std::mutex EvictionChannelOptionLock;

class PolicyEvictionProvider : public RegAllocEvictionAdvisorProvider {
public:
  PolicyEvictionProvider(LLVMContext &Ctx, const RegAllocPolicy &Policy, RegAllocLog *Log,
                         const RegAllocPlan *Plan)
      : RegAllocEvictionAdvisorProvider(AdvisorMode::Default, Ctx), Policy(Policy), Log(Log),
        Plan(Plan) {}
  ~PolicyEvictionProvider() override {
    Release.reset(); // closes the runner's ends of the channel first
    if (Log && Channel)
      Log->Evictions += Channel->decisions();
    Channel.reset();
  }

  std::unique_ptr<RegAllocEvictionAdvisor> getAdvisor(const MachineFunction &MF,
                                                      const RAGreedy &RA,
                                                      MachineBlockFrequencyInfo *MBFI,
                                                      MachineLoopInfo *Loops) override {
    const int Head = headFor(MF, Policy, Plan);
    if (Head == RegAllocPlan::Greedy || !Policy.evicts(unsigned(Head)) || Broken)
      return std::make_unique<DefaultEvictionAdvisor>(MF, RA);
    CurrentHead = Head; // the channel answers this function's decisions with Head
    if (Release)
      return Release->getAdvisor(MF, RA, MBFI, Loops);
    Expected<std::unique_ptr<EvictionChannel>> C =
        EvictionChannel::open([this](const EvictionObservation &O) {
          return Policy.chooseEviction(O, unsigned(CurrentHead.load()));
        });
    if (!C) { // no FIFO here (a read-only /tmp): LLVM's eviction, as without the head
      consumeError(C.takeError());
      Broken = true;
      return std::make_unique<DefaultEvictionAdvisor>(MF, RA);
    }
    Channel = std::move(*C);
    std::lock_guard<std::mutex> Lock(EvictionChannelOptionLock);
    static auto *Base = static_cast<cl::opt<std::string> *>(
        cl::getRegisteredOptions().lookup("regalloc-evict-interactive-channel-base"));
    if (!Base) { // an LLVM without the interactive runner
      Broken = true;
      return std::make_unique<DefaultEvictionAdvisor>(MF, RA);
    }
    *Base = Channel->base();
    Release.reset(createReleaseModeAdvisorProvider(MF.getFunction().getContext()));
    std::unique_ptr<RegAllocEvictionAdvisor> A = Release->getAdvisor(MF, RA, MBFI, Loops);
    *Base = "";
    Channel->removeNames(); // the runner has both ends open now
    return A;
  }

private:
  const RegAllocPolicy &Policy;
  RegAllocLog *Log;
  const RegAllocPlan *Plan;
  std::atomic<int> CurrentHead{0};
  bool Broken = false;
  std::unique_ptr<EvictionChannel> Channel;
  std::unique_ptr<RegAllocEvictionAdvisorProvider> Release;
};

// Shares the base's pass ID, so the greedy allocator's getAnalysis finds it.
class PolicyEvictionAnalysis : public RegAllocEvictionAdvisorAnalysisLegacy {
public:
  PolicyEvictionAnalysis(const RegAllocPolicy &Policy, RegAllocLog *Log, const RegAllocPlan *Plan)
      : RegAllocEvictionAdvisorAnalysisLegacy(AdvisorMode::Default), Policy(Policy), Log(Log),
        Plan(Plan) {}
  bool doInitialization(Module &M) override {
    Provider = std::make_unique<PolicyEvictionProvider>(M.getContext(), Policy, Log, Plan);
    return false;
  }

private:
  const RegAllocPolicy &Policy;
  RegAllocLog *Log;
  const RegAllocPlan *Plan;
};

Pass *createEvictionAnalysis() {
  // Only a policy with eviction heads, and no advisor mode the user asked for
  // (-regalloc-enable-advisor), changes anything: otherwise LLVM's own analysis.
  static cl::Option *Mode = cl::getRegisteredOptions().lookup("regalloc-enable-advisor");
  if (CurrentPolicy && CurrentPolicy->anyEvicts() && !(Mode && Mode->getNumOccurrences()))
    return new PolicyEvictionAnalysis(*CurrentPolicy, CurrentLog, CurrentPlan);
  return LLVMEvictionAnalysisCtor();
}

void installPriorityHook() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    PassRegistry &Registry = *PassRegistry::getPassRegistry();
    initializeRegAllocPriorityAdvisorAnalysisLegacyPass(Registry);
    auto *Info = const_cast<PassInfo *>(
        Registry.getPassInfo(&RegAllocPriorityAdvisorAnalysisLegacy::ID));
    LLVMPriorityAnalysisCtor = Info->getNormalCtor();
    Info->setNormalCtor(&createPriorityAnalysis);
    initializeRegAllocEvictionAdvisorAnalysisLegacyPass(Registry);
    auto *Evict = const_cast<PassInfo *>(
        Registry.getPassInfo(&RegAllocEvictionAdvisorAnalysisLegacy::ID));
    LLVMEvictionAnalysisCtor = Evict->getNormalCtor();
    Evict->setNormalCtor(&createEvictionAnalysis);
  });
}

} // namespace

ScopedMLRegAlloc::ScopedMLRegAlloc(const RegAllocPolicy &Policy, RegAllocLog *Log,
                                   const RegAllocPlan *Plan)
    : SavedPolicy(CurrentPolicy), SavedLog(CurrentLog), SavedPlan(CurrentPlan) {
  installPriorityHook();
  CurrentPolicy = &Policy;
  CurrentLog = Log;
  CurrentPlan = Plan;
}

ScopedMLRegAlloc::~ScopedMLRegAlloc() {
  CurrentPolicy = SavedPolicy;
  CurrentLog = SavedLog;
  CurrentPlan = SavedPlan;
}

} // namespace smartcc
