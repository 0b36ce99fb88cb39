#include "policies/regalloc/AllocatorFeatures.h"
#include "llvm/CodeGen/LiveIntervals.h"
#include "llvm/CodeGen/MachineFrameInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace smartcc {

const std::vector<std::string> &allocatorFeatureNames() {
  static const std::vector<std::string> Names{
      "log_instructions",      // size of the function
      "log_blocks",
      "log_virtual_registers", // live ranges to allocate
      "max_loop_depth",
      "loop_instruction_fraction",
      "log_calls",
      "crossing_call_fraction", // ranges live across a call: callee-saved registers or spills
      "average_live_ranges",    // register pressure: ranges' summed lengths over the function's
      "log_copies",             // what coalescing left to the allocator
      "global_range_fraction",  // ranges that span blocks
      "log_uses_per_range",
      "log_frame_objects",
      "x86_64",                 // the ISA
      // The most ranges live at once, each counted as 1/(registers of its class): above 1,
      // something must spill or split; and its excess over 1.
      "max_pressure",
      "excess_pressure",
      // Ranges live across calls per callee-saved register: where the allocators differ most
      // (greedy splits around calls, basic spills whole ranges).
      "crossing_calls_per_callee_saved",
      "log_max_live_ranges",
  };
  return Names;
}

std::vector<float> allocatorFeatures(const MachineFunction &MF, const LiveIntervals &LIS,
                                     const MachineLoopInfo &Loops) {
  unsigned Instructions = 0, InLoops = 0, Calls = 0, Copies = 0, MaxDepth = 0;
  for (const MachineBasicBlock &MBB : MF) {
    unsigned Depth = Loops.getLoopDepth(&MBB);
    MaxDepth = std::max(MaxDepth, Depth);
    for (const MachineInstr &MI : MBB) {
      if (MI.isDebugInstr())
        continue;
      ++Instructions;
      InLoops += Depth > 0;
      Calls += MI.isCall();
      Copies += MI.isCopy();
    }
  }
  const MachineRegisterInfo &MRI = MF.getRegInfo();
  const SlotIndexes &Indexes = *LIS.getSlotIndexes();
  double FunctionLength = 0;
  if (!MF.empty())
    FunctionLength =
        std::max(1.0, double(Indexes.getMBBEndIdx(&MF.back()).distance(
                          Indexes.getMBBStartIdx(&MF.front()))));
  unsigned Ranges = 0, Crossing = 0, Global = 0, Uses = 0;
  double Length = 0;
  BitVector Usable;
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  DenseMap<const TargetRegisterClass *, unsigned> ClassRegisters;
  // Pressure: +weight where a segment starts, -weight where it ends, swept in slot order.
  std::vector<std::pair<SlotIndex, double>> Events;
  for (unsigned I = 0, E = MRI.getNumVirtRegs(); I != E; ++I) {
    Register Reg = Register::index2VirtReg(I);
    if (MRI.reg_nodbg_empty(Reg) || !LIS.hasInterval(Reg))
      continue;
    const LiveInterval &LI = LIS.getInterval(Reg);
    if (LI.empty())
      continue;
    ++Ranges;
    const TargetRegisterClass *RC = MRI.getRegClass(Reg);
    auto [It, New] = ClassRegisters.try_emplace(RC, 0);
    if (New)
      It->second = TRI.getAllocatableSet(MF, RC).count();
    double Weight = 1.0 / std::max(1u, It->second);
    for (const LiveRange::Segment &S : LI) {
      Length += S.end.distance(S.start);
      Events.push_back({S.start, Weight});
      Events.push_back({S.end, -Weight});
    }
    Usable.clear();
    Crossing += const_cast<LiveIntervals &>(LIS).checkRegMaskInterference(LI, Usable);
    Global += !LIS.intervalIsInOneMBB(LI);
    for (const MachineOperand &MO : MRI.reg_nodbg_operands(Reg)) {
      (void)MO;
      ++Uses;
    }
  }
  // Ends before starts at one index: a range ending where another starts frees its register.
  llvm::sort(Events, [](const auto &A, const auto &B) {
    return A.first < B.first || (A.first == B.first && A.second < B.second);
  });
  double Pressure = 0, MaxPressure = 0;
  unsigned Live = 0, MaxLive = 0;
  for (const auto &[Index, W] : Events) {
    Pressure += W;
    Live = W > 0 ? Live + 1 : Live - 1;
    MaxPressure = std::max(MaxPressure, Pressure);
    MaxLive = std::max(MaxLive, Live);
  }
  unsigned CalleeSaved = 0;
  for (const MCPhysReg *R = TRI.getCalleeSavedRegs(&MF); R && *R; ++R)
    ++CalleeSaved;
  auto Log = [](double X) { return float(std::log1p(X)); };
  auto Frac = [](unsigned N, unsigned D) { return D ? float(double(N) / D) : 0.f; };
  return {Log(Instructions),
          Log(MF.size()),
          Log(Ranges),
          float(MaxDepth),
          Frac(InLoops, Instructions),
          Log(Calls),
          Frac(Crossing, Ranges),
          float(Length / FunctionLength),
          Log(Copies),
          Frac(Global, Ranges),
          Log(Ranges ? double(Uses) / Ranges : 0),
          Log(MF.getFrameInfo().getNumObjects()),
          MF.getTarget().getTargetTriple().getArch() == Triple::x86_64 ? 1.f : 0.f,
          float(MaxPressure),
          float(std::max(0.0, MaxPressure - 1)),
          float(double(Crossing) / std::max(1u, CalleeSaved)),
          Log(MaxLive)};
}

} // namespace smartcc
