#include "runtime/compile/AfterFrameLowering.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"
#include <memory>
#include <mutex>
#include <set>
#include <vector>

using namespace llvm;

namespace smartcc {

void insertAfterX86FrameLowering(MachineFunctionPass *(*Make)()) {
  static std::mutex Lock;
  static std::set<MachineFunctionPass *(*)()> Inserted;
  // Alive for the process: a callback unregisters when destroyed.
  static std::vector<std::unique_ptr<RegisterTargetPassConfigCallback>> Registrations;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Inserted.insert(Make).second)
    return;
  Registrations.push_back(std::make_unique<RegisterTargetPassConfigCallback>(
      [Make](TargetMachine &TM, PassManagerBase &, TargetPassConfig *Config) {
        if (TM.getTargetTriple().getArch() == Triple::x86_64)
          Config->insertPass(&PrologEpilogCodeInserterID, IdentifyingPassPtr(Make()));
      }));
}

} // namespace smartcc
