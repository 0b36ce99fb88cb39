#include "runtime/UnwindSharing.h"
#include "runtime/FramelessRegisters.h"
#include "runtime/lto/SharedUnwind.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/TargetSelect.h"
#include <algorithm>
#include <memory>
#include <mutex>

using namespace llvm;

namespace smartcc {

namespace {

Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

struct FDERange {
  uint64_t Begin = 0, End = 0;
  bool Plain = false; // no instructions but DW_CFA_nop, no LSDA, an ordinary CIE
};

struct FunctionSymbol {
  std::string Name;
  uint64_t Address = 0, Size = 0;
};

struct LinkedFile {
  bool DebugInfo = false;
  std::unique_ptr<object::ObjectFile> File;
  const object::ELFObjectFileBase *ELF = nullptr;
  std::vector<FDERange> FDEs; // sorted by Begin
  std::vector<FunctionSymbol> Functions;
};

Expected<LinkedFile> readLinked(MemoryBufferRef B) {
  LinkedFile L;
  Expected<std::unique_ptr<object::ObjectFile>> O = object::ObjectFile::createObjectFile(B);
  if (!O)
    return O.takeError();
  L.File = std::move(*O);
  L.ELF = dyn_cast<object::ELFObjectFileBase>(L.File.get());
  if (!L.ELF)
    return failure("not an ELF file");
  for (const object::SectionRef &S : L.ELF->sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name == ".debug_info")
      L.DebugInfo = true;
    if (*Name != ".eh_frame")
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents)
      return Contents.takeError();
    DWARFDataExtractor Data(*Contents, L.ELF->isLittleEndian(), L.ELF->getBytesInAddress());
    DWARFDebugFrame Frames(L.ELF->getArch(), /*IsEH=*/true, S.getAddress());
    if (Error E = Frames.parse(Data))
      return std::move(E);
    for (const dwarf::FrameEntry &Entry : Frames) {
      const auto *F = dyn_cast<dwarf::FDE>(&Entry);
      if (!F)
        continue;
      FDERange R{F->getInitialLocation(), F->getInitialLocation() + F->getAddressRange()};
      R.Plain = !F->getLSDAAddress() && F->getLinkedCIE() &&
                !F->getLinkedCIE()->getAugmentationString().contains('S');
      for (const dwarf::CFIProgram::Instruction &I : F->cfis())
        if (I.Opcode != dwarf::DW_CFA_nop)
          R.Plain = false;
      L.FDEs.push_back(R);
    }
  }
  llvm::sort(L.FDEs, [](const FDERange &A, const FDERange &B) { return A.Begin < B.Begin; });
  for (const object::ELFSymbolRef &S : L.ELF->symbols()) {
    if (S.getELFType() != ELF::STT_FUNC)
      continue;
    Expected<StringRef> Name = S.getName();
    Expected<uint64_t> Address = S.getAddress();
    if (!Name || !Address) {
      consumeError(Name.takeError());
      consumeError(Address.takeError());
      continue;
    }
    L.Functions.push_back({Name->str(), *Address, S.getSize()});
  }
  return L;
}

// The machine outliner's functions (named by code generation).
bool isMachineOutlined(StringRef Name) { return Name.starts_with("OUTLINED_FUNCTION"); }

// The FDE covering Address, if any.
const FDERange *fdeAt(const std::vector<FDERange> &FDEs, uint64_t Address) {
  auto It = std::upper_bound(FDEs.begin(), FDEs.end(), Address,
                             [](uint64_t A, const FDERange &R) { return A < R.Begin; });
  if (It == FDEs.begin())
    return nullptr;
  --It;
  return Address < It->End ? &*It : nullptr;
}

struct Disassembler {
  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<MCSubtargetInfo> STI;
  std::unique_ptr<MCInstrInfo> MII;
  std::unique_ptr<MCContext> Ctx;
  std::unique_ptr<MCDisassembler> Dis;
  std::vector<MCRegister> Preserved;
  MCRegister StackPointer;
};

Expected<Disassembler> disassemblerFor(const Triple &T) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllDisassemblers();
  });
  std::string Err;
  const Target *TheTarget = TargetRegistry::lookupTarget(T, Err);
  if (!TheTarget)
    return failure("no target for " + T.str() + ": " + Err);
  Disassembler D;
  D.MRI.reset(TheTarget->createMCRegInfo(T));
  MCTargetOptions Options;
  if (D.MRI)
    D.MAI.reset(TheTarget->createMCAsmInfo(*D.MRI, T, Options));
  // Every extension, as llvm-objdump decodes AArch64 code: the check must read whatever the
  // program's functions were compiled for.
  D.STI.reset(TheTarget->createMCSubtargetInfo(T, "", T.isAArch64() ? "+all" : ""));
  D.MII.reset(TheTarget->createMCInstrInfo());
  if (!D.MRI || !D.MAI || !D.STI || !D.MII)
    return failure("no machine-code support for " + T.str());
  D.Ctx = std::make_unique<MCContext>(T, D.MAI.get(), D.MRI.get(), D.STI.get());
  D.Dis.reset(TheTarget->createMCDisassembler(*D.STI, *D.Ctx));
  if (!D.Dis)
    return failure("no disassembler for " + T.str());
  if (framelessPreservedRegisters(T.getArch()).empty())
    return failure("shared unwind entries are checked on AArch64 and x86-64 only");
  std::string Missing;
  D.Preserved = framelessPreservedRegisters(*D.MRI, T.getArch(), &Missing);
  if (D.Preserved.empty())
    return failure("no register " + Missing + " in " + T.str());
  D.StackPointer = D.Preserved.front();
  return D;
}

// Whether instruction I may stand in a frameless function; Why says otherwise.
bool keepsFrame(const Disassembler &D, const MCInst &I, std::string &Why) {
  const MCInstrDesc &Desc = D.MII->get(I.getOpcode());
  // x86-64's call and return move the stack pointer and restore it: the caller's rule holds
  // before and after, and inside the callee its own entry describes the frame.
  const bool BalancedStack = (Desc.isCall() || Desc.isReturn()) && D.StackPointer &&
                             StringRef(D.MRI->getName(D.StackPointer)) == "RSP";
  auto Check = [&](MCRegister R) {
    for (MCRegister P : D.Preserved) {
      if (!D.MRI->regsOverlap(R, P))
        continue;
      if (BalancedStack && P == D.StackPointer)
        continue;
      Why = std::string("writes ") + D.MRI->getName(R);
      return false;
    }
    return true;
  };
  for (unsigned K = 0; K < Desc.getNumDefs() && K < I.getNumOperands(); ++K)
    if (I.getOperand(K).isReg() && I.getOperand(K).getReg() && !Check(I.getOperand(K).getReg()))
      return false;
  for (MCPhysReg R : Desc.implicit_defs())
    if (!Check(R))
      return false;
  return true;
}

} // namespace

Expected<UnwindSummary> summarizeUnwind(MemoryBufferRef ELF) {
  Expected<LinkedFile> L = readLinked(ELF);
  if (!L)
    return L.takeError();
  UnwindSummary S;
  S.FDEs = unsigned(L->FDEs.size());
  S.DebugInfo = L->DebugInfo;
  StringMap<unsigned> Count;
  for (const FunctionSymbol &F : L->Functions)
    ++Count[F.Name];
  for (const FunctionSymbol &F : L->Functions) {
    if (F.Size == 0)
      continue;
    const FDERange *R = fdeAt(L->FDEs, F.Address);
    if (!R) {
      if (isMachineOutlined(F.Name))
        S.OutlinedCovered = false;
      continue;
    }
    S.Covered.insert(F.Name);
    // Its own entry, the CIE's rule alone; a name defined once (the pass finds it by name).
    // (Machine-outlined functions are made in code generation, after any IR pass.)
    if (R->Begin != F.Address || !R->Plain || R->End < F.Address + F.Size)
      continue;
    if (isMachineOutlined(F.Name))
      ++S.FramelessOutlined;
    else if (Count[F.Name] == 1)
      S.Frameless.push_back(F.Name);
  }
  llvm::sort(S.Frameless);
  return S;
}

Expected<SharedUnwindCheck> checkSharedUnwind(MemoryBufferRef Candidate,
                                              const UnwindSummary &Baseline) {
  Expected<LinkedFile> L = readLinked(Candidate);
  if (!L)
    return L.takeError();
  // The runs: each begin marker followed by its end marker (a ThinLTO link has one run per
  // backend that made one; their local symbols share the names).
  std::vector<const FunctionSymbol *> Begins, Ends;
  for (const FunctionSymbol &F : L->Functions) {
    if (F.Name == SharedUnwindBegin)
      Begins.push_back(&F);
    if (F.Name == SharedUnwindEnd)
      Ends.push_back(&F);
  }
  auto ByAddress = [](const FunctionSymbol *A, const FunctionSymbol *B) {
    return A->Address < B->Address;
  };
  llvm::sort(Begins, ByAddress);
  llvm::sort(Ends, ByAddress);
  // No run at all: the module had nothing to cover (code generation's half removes the
  // markers of an empty run); the output is then an ordinary link, checked below like any.
  if (Begins.size() != Ends.size())
    return failure("the shared unwind runs' markers do not pair up");
  std::vector<const FDERange *> Runs;
  for (size_t K = 0; K < Begins.size(); ++K) {
    // An empty run: code generation removed its directives (nothing to cover), no entry.
    if (Ends[K]->Address == Begins[K]->Address)
      continue;
    if (Ends[K]->Address < Begins[K]->Address ||
        (K + 1 < Begins.size() && Begins[K + 1]->Address < Ends[K]->Address))
      return failure("the shared unwind runs' markers are not in order");
    // The shared entry: begins at the begin marker, reaches the end marker, says nothing.
    const FDERange *Shared = fdeAt(L->FDEs, Begins[K]->Address);
    if (!Shared || Shared->Begin != Begins[K]->Address || Shared->End < Ends[K]->Address)
      return failure("the shared unwind entry does not cover the run");
    if (!Shared->Plain)
      return failure("the shared unwind entry is not the CIE's rule alone");
    for (const FDERange &R : L->FDEs)
      if (&R != Shared && R.Begin < Shared->End && Shared->Begin < R.End)
        return failure("another unwind entry overlaps the shared run");
    Runs.push_back(Shared);
  }

  // Every instruction of every run, as bytes of the output.
  SharedUnwindCheck C;
  Expected<Disassembler> D = disassemblerFor(L->ELF->makeTriple());
  if (!D)
    return D.takeError();
  for (const FDERange *Shared : Runs) {
    const uint64_t RunBytes = Shared->End - Shared->Begin;
    C.RunBytes += RunBytes;
    ArrayRef<uint8_t> Bytes;
    for (const object::SectionRef &S : L->ELF->sections())
      if (S.isText() && S.getAddress() <= Shared->Begin &&
          Shared->End <= S.getAddress() + S.getSize()) {
        Expected<StringRef> Contents = S.getContents();
        if (!Contents)
          return Contents.takeError();
        Bytes = arrayRefFromStringRef(*Contents).slice(Shared->Begin - S.getAddress(), RunBytes);
        break;
      }
    if (Bytes.size() != RunBytes)
      return failure("the shared run is not inside one section of code");
    for (uint64_t Off = 0; Off < Bytes.size();) {
      MCInst I;
      uint64_t Size = 0;
      if (D->Dis->getInstruction(I, Size, Bytes.slice(Off), Shared->Begin + Off, nulls()) !=
              MCDisassembler::Success ||
          Size == 0)
        return failure("cannot decode the instruction at 0x" + utohexstr(Shared->Begin + Off));
      std::string Why;
      if (!keepsFrame(*D, I, Why)) {
        std::string Where;
        for (const FunctionSymbol &F : L->Functions)
          if (F.Address <= Shared->Begin + Off && Shared->Begin + Off < F.Address + F.Size)
            Where = " (" + F.Name + ")";
        return failure("the instruction at 0x" + utohexstr(Shared->Begin + Off) + Where + " " +
                       Why + ": not frameless");
      }
      ++C.Instructions;
      Off += Size;
    }
  }
  auto InRun = [&](uint64_t A) {
    return llvm::any_of(Runs, [&](const FDERange *R) { return R->Begin <= A && A < R->End; });
  };

  // No function lost the entry it had in clang's link; outlined functions keep theirs.
  for (const FunctionSymbol &F : L->Functions) {
    if (F.Size == 0)
      continue;
    if (InRun(F.Address)) {
      if (F.Name != SharedUnwindBegin && F.Name != SharedUnwindEnd)
        ++C.Functions;
      continue;
    }
    if ((Baseline.Covered.count(F.Name) ||
         (isMachineOutlined(F.Name) && Baseline.OutlinedCovered)) &&
        !fdeAt(L->FDEs, F.Address))
      return failure(F.Name + " has no unwind entry");
  }
  return C;
}

} // namespace smartcc
