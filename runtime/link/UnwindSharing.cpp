#include "runtime/link/UnwindSharing.h"
#include "runtime/compile/FramelessRegisters.h"
#include "runtime/compile/SharedUnwind.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/TargetSelect.h"
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

using namespace llvm;

namespace smartcc {

namespace {

Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

struct FDERange {
  uint64_t Begin = 0, End = 0;
  bool Plain = false; // no instructions but DW_CFA_nop, no LSDA, an ordinary CIE
  std::optional<uint64_t> LSDA; // its language-specific data (a C++ call-site table)
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
      R.LSDA = F->getLSDAAddress();
      R.Plain = !R.LSDA && F->getLinkedCIE() &&
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

// The contents of the output from Address to the end of the section that holds it.
Expected<StringRef> contentsFrom(const LinkedFile &L, uint64_t Address) {
  for (const object::SectionRef &S : L.ELF->sections()) {
    if (S.isVirtual() || Address < S.getAddress() || Address >= S.getAddress() + S.getSize())
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents)
      return Contents.takeError();
    return Contents->drop_front(Address - S.getAddress());
  }
  return failure("no section holds 0x" + utohexstr(Address));
}

// The bytes of the output at [Address, Address + Size), within one section.
Expected<ArrayRef<uint8_t>> bytesAt(const LinkedFile &L, uint64_t Address, uint64_t Size) {
  Expected<StringRef> Contents = contentsFrom(L, Address);
  if (!Contents)
    return Contents.takeError();
  if (Contents->size() < Size)
    return failure("no section holds 0x" + utohexstr(Address) + "-0x" +
                   utohexstr(Address + Size));
  return arrayRefFromStringRef(Contents->take_front(Size));
}

// The function whose bytes hold Address, if any.
const FunctionSymbol *functionAt(const LinkedFile &L, uint64_t Address) {
  const FunctionSymbol *Found = nullptr;
  for (const FunctionSymbol &F : L.Functions)
    if (F.Size && F.Address <= Address && Address < F.Address + F.Size)
      Found = &F; // the last, as the symbol table lists them
  return Found;
}

// " (NAME)" of the function that holds Address, or nothing.
std::string inFunction(const LinkedFile &L, uint64_t Address) {
  const FunctionSymbol *F = functionAt(L, Address);
  return F ? " (" + F->Name + ")" : "";
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
  std::unique_ptr<MCInstrAnalysis> MIA;
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
  D.MIA.reset(TheTarget->createMCInstrAnalysis(D.MII.get()));
  if (!D.Dis || !D.MIA)
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

// Decodes [Address, Address + Size) of the output instruction by instruction, calling Visit
// with each (and its address and size) until it returns an error.
Error forEachInstruction(const Disassembler &D, const LinkedFile &L, uint64_t Address,
                         uint64_t Size,
                         function_ref<Error(const MCInst &, uint64_t, uint64_t)> Visit) {
  Expected<ArrayRef<uint8_t>> Bytes = bytesAt(L, Address, Size);
  if (!Bytes)
    return Bytes.takeError();
  for (uint64_t Off = 0; Off < Bytes->size();) {
    MCInst I;
    uint64_t Length = 0;
    if (D.Dis->getInstruction(I, Length, Bytes->slice(Off), Address + Off, nulls()) !=
            MCDisassembler::Success ||
        Length == 0)
      return failure("cannot decode the instruction at 0x" + utohexstr(Address + Off));
    if (Error E = Visit(I, Address + Off, Length))
      return E;
    Off += Length;
  }
  return Error::success();
}

// The ranges [begin, end) of the call sites that the language-specific data at Address lists
// for the function that begins at FunctionStart: GCC's format, which LLVM writes (a header of
// encodings, then each call site's start and length from the function's start, its landing
// pad and its action). A call outside every range is one the personality routine takes for
// "cannot throw": it calls std::terminate() if an exception does come through it.
Expected<std::vector<std::pair<uint64_t, uint64_t>>>
callSites(const LinkedFile &L, uint64_t Address, uint64_t FunctionStart) {
  Expected<StringRef> Contents = contentsFrom(L, Address);
  if (!Contents)
    return Contents.takeError();
  DWARFDataExtractor Data(*Contents, L.ELF->isLittleEndian(), L.ELF->getBytesInAddress());
  auto Bad = [&] { return failure("cannot read the call-site table at 0x" + utohexstr(Address)); };
  uint64_t Off = 0;
  const uint8_t LPStartEncoding = Data.getU8(&Off);
  if (LPStartEncoding != dwarf::DW_EH_PE_omit &&
      !Data.getEncodedPointer(&Off, LPStartEncoding, Address + Off))
    return Bad();
  if (Data.getU8(&Off) != dwarf::DW_EH_PE_omit)
    Data.getULEB128(&Off); // the type table's offset
  const uint8_t Encoding = Data.getU8(&Off);
  const uint64_t Length = Data.getULEB128(&Off);
  const uint64_t End = Off + Length;
  if (Off == 0 || !Data.isValidOffsetForDataOfSize(Off, Length))
    return Bad();
  std::vector<std::pair<uint64_t, uint64_t>> Sites;
  while (Off < End) {
    const uint64_t Before = Off;
    std::optional<uint64_t> Start = Data.getEncodedPointer(&Off, Encoding, Address + Off);
    std::optional<uint64_t> Size = Data.getEncodedPointer(&Off, Encoding, Address + Off);
    std::optional<uint64_t> Pad = Data.getEncodedPointer(&Off, Encoding, Address + Off);
    Data.getULEB128(&Off); // the action
    if (!Start || !Size || !Pad || Off <= Before || Off > End)
      return Bad();
    Sites.emplace_back(FunctionStart + *Start, FunctionStart + *Start + *Size);
  }
  return Sites;
}

// Whether the function F of the output leaves itself for other code but by returning: a
// call, a branch out of its bytes (a tail call) or an indirect branch. One that does not
// cannot throw (no instruction but a call raises a C++ exception).
Expected<bool> leavesItself(const Disassembler &D, const LinkedFile &L, const FunctionSymbol &F) {
  bool Leaves = false;
  Error E = forEachInstruction(D, L, F.Address, F.Size,
                               [&](const MCInst &I, uint64_t Address, uint64_t Size) {
    const MCInstrDesc &Desc = D.MII->get(I.getOpcode());
    if (Desc.isReturn() && !Desc.isCall())
      return Error::success();
    uint64_t Target = 0;
    if (Desc.isCall() || Desc.isIndirectBranch() ||
        (Desc.isBranch() && (!D.MIA->evaluateBranch(I, Address, Size, Target) ||
                             Target < F.Address || Target >= F.Address + F.Size)))
      Leaves = true;
    return Error::success();
  });
  if (E)
    return std::move(E);
  return Leaves;
}

// The functions with a call-site table may call into the runs only where the table lists the
// call or the callee cannot throw. Members of a run are nounwind, which makes code generation
// leave their calls out of the tables; the IR pass's members were nounwind before it
// (runtime/compile/SharedUnwind.h), as in clang's link, but the machine outliner's functions get
// the attribute from code generation's half (runtime/compile/SharedUnwindCodegen.h), and for one
// that ends in a tail call (a thunk) that would be false.
Error checkCallSites(const Disassembler &D, const LinkedFile &L,
                     function_ref<bool(uint64_t)> InRun) {
  std::map<uint64_t, bool> Leaves; // outlined functions of the runs read so far, by address
  for (const FDERange &R : L.FDEs) {
    if (!R.LSDA)
      continue;
    Expected<std::vector<std::pair<uint64_t, uint64_t>>> Sites = callSites(L, *R.LSDA, R.Begin);
    if (!Sites)
      return Sites.takeError();
    Error E = forEachInstruction(D, L, R.Begin, R.End - R.Begin,
                                 [&](const MCInst &I, uint64_t Address, uint64_t Size) -> Error {
      uint64_t Target = 0;
      if (!D.MII->get(I.getOpcode()).isCall() ||
          !D.MIA->evaluateBranch(I, Address, Size, Target) || !InRun(Target))
        return Error::success();
      // The unwinder looks the return address up less one: inside the call instruction.
      const uint64_t Looked = Address + Size - 1;
      if (llvm::any_of(*Sites, [&](const std::pair<uint64_t, uint64_t> &S) {
            return S.first <= Looked && Looked < S.second;
          }))
        return Error::success();
      const FunctionSymbol *Callee = functionAt(L, Target);
      if (!Callee || Callee->Address != Target)
        return failure("the call at 0x" + utohexstr(Address) +
                       " into a shared run reaches no function's start");
      if (!isMachineOutlined(Callee->Name))
        return Error::success();
      auto It = Leaves.find(Target);
      if (It == Leaves.end()) {
        Expected<bool> Leaving = leavesItself(D, L, *Callee);
        if (!Leaving)
          return Leaving.takeError();
        It = Leaves.emplace(Target, *Leaving).first;
      }
      if (!It->second)
        return Error::success();
      return failure("the call at 0x" + utohexstr(Address) + inFunction(L, Address) + " of " + Callee->Name +
                     ", which may throw, is not in its call-site table: an exception "
                     "through it would end in std::terminate()");
    });
    if (E)
      return E;
  }
  return Error::success();
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
  // The runs and the functions are found by their symbols: without any, nothing is proven.
  if (L->Functions.empty() && !L->FDEs.empty())
    return failure("the output has no function symbols to check (stripped?)");
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
    C.RunBytes += Shared->End - Shared->Begin;
    Error E = forEachInstruction(*D, *L, Shared->Begin, Shared->End - Shared->Begin,
                                 [&](const MCInst &I, uint64_t Address, uint64_t) -> Error {
      std::string Why;
      if (!keepsFrame(*D, I, Why)) {
        return failure("the instruction at 0x" + utohexstr(Address) + inFunction(*L, Address) +
                       " " + Why +
                       ": not frameless");
      }
      ++C.Instructions;
      return Error::success();
    });
    if (E)
      return std::move(E);
  }
  auto InRun = [&](uint64_t A) {
    return llvm::any_of(Runs, [&](const FDERange *R) { return R->Begin <= A && A < R->End; });
  };

  // Calls into the runs from functions with a call-site table.
  if (!Runs.empty())
    if (Error E = checkCallSites(*D, *L, InRun))
      return std::move(E);

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
