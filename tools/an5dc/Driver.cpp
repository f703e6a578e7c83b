//===- Driver.cpp - The an5dc pipeline behind the command line ------------===//
//
// The pipeline in order: frontend, polyhedral model, analysis, the
// performance model's choice of parameters (what the user did not give),
// the plan and the CUDA emission. '--dump=<stage>' prints a stage's result
// and stops there.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "SourceText.h"

#include "an5d/Analysis.h"
#include "an5d/CodeGen.h"
#include "an5d/Model.h"
#include "an5d/Polyhedral.h"
#include "an5d/Stack.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace an5d;
using namespace an5dc;

namespace {

/// Parses -bS "X" or "X,Y" into sizes; false on a malformed list.
bool parseBlockSizes(const std::string &Text, std::vector<int64_t> &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Text).split(Parts, ',');
  for (llvm::StringRef Part : Parts) {
    int64_t V = 0;
    if (Part.trim().getAsInteger(10, V))
      return false;
    Out.push_back(V);
  }
  return !Out.empty() && Out.size() <= 2;
}

/// Prints the model's ranking as CSV, every configuration.
void printRankingCsv(llvm::raw_ostream &OS, const std::vector<Prediction> &R) {
  OS << "rank,bT,bS,hSN,cells,halo_rows,kernel,GFLOP/s,ms_per_step,limit,registers,"
        "register_cap,spills,blocks_per_sm,compute_us,issue_us,shared_us,"
        "global_us,wave_efficiency,latency_efficiency,kvec\n";
  for (size_t I = 0; I < R.size(); ++I) {
    const Prediction &P = R[I];
    std::string BS = userBlockSizes(P.BS, "x");
    OS << llvm::format("%zu,%lld,%s,%lld,%lld,%d,%s,%.1f,%.6f,%s,%lld,%lld,%d,"
                       "%lld,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%lld\n",
                       I + 1, (long long)P.BT, BS.c_str(),
                       (long long)P.StreamBlock, (long long)P.Cells,
                       int(P.HaloRows), kernelKindName(P.Kernel),
                       P.GFlops, P.SecondsPerStep * 1e3,
                       P.Limit.substr(0, P.Limit.find(" (")).c_str(),
                       (long long)P.Registers, (long long)P.RegisterCap,
                       int(P.Spills), (long long)P.BlocksPerSM,
                       P.TimeCompute * 1e6, P.TimeIssue * 1e6,
                       P.TimeShared * 1e6, P.TimeGlobal * 1e6,
                       P.WaveEfficiency, P.LatencyEfficiency,
                       (long long)P.VecK);
  }
}

/// Prints the several-field model's ranking as CSV, every configuration.
void printFieldsRankingCsv(llvm::raw_ostream &OS,
                           const std::vector<FieldsPrediction> &R) {
  OS << "rank,scheme,bT,bS,hSN,GFLOP/s,ms_per_step,limit,blocks_per_sm,"
        "issue_us,shared_us,global_us,wave_efficiency,latency_efficiency,"
        "barrier_efficiency\n";
  for (size_t I = 0; I < R.size(); ++I) {
    const FieldsPrediction &P = R[I];
    bool Naive = P.Run == Scheme::Naive;
    std::string Tile;
    for (int64_t T : P.Tile)
      Tile += (Tile.empty() ? "" : "x") + std::to_string(T);
    OS << llvm::format("%zu,%s,%lld,%s,%lld,%.1f,%.6f,%s,%lld,%.3f,%.3f,"
                       "%.3f,%.4f,%.4f,%.4f\n",
                       I + 1, Naive ? "naive" : "n5d", (long long)P.BT,
                       Naive ? "na" : Tile.c_str(), (long long)P.StreamBlock,
                       P.GFlops, P.SecondsPerStep * 1e3,
                       P.Limit.substr(0, P.Limit.find(" (")).c_str(),
                       (long long)P.BlocksPerSM, P.TimeIssue * 1e6,
                       P.TimeShared * 1e6, P.TimeGlobal * 1e6,
                       P.WaveEfficiency, P.LatencyEfficiency,
                       P.BarrierEfficiency);
  }
}

/// The header's account of a plan the model chose.
std::string modelOrigin(const Prediction &R, const DeviceSpec &D,
                        const std::string &GpuOrigin, const ProblemSize &Size,
                        const std::string &Fixed, size_t Rank, size_t Count) {
  std::string Text =
      "chosen by the performance model (an5dc --model) for " + D.Name +
      (GpuOrigin.empty() ? "" : " (" + GpuOrigin + ")") +
      ", grid " + sizeText(Size) + (Fixed.empty() ? "" : ", " + Fixed) +
      (Count > 1 ? "; candidate " + std::to_string(Rank + 1) + " of " +
                       std::to_string(Count)
                 : "") +
      ": predicted " + llvm::formatv("{0:f1}", R.GFlops).str() +
      " GFLOP/s, limited by " + R.Limit + "; " +
      std::to_string(R.Registers) + " registers estimated (cap " +
      std::to_string(R.RegisterCap) + ")";
  return Text;
}

/// --autotune's vector-cell candidate when none of the model's top K is
/// one: the best-ranked vector-cell configuration of Ranking, planned and
/// appended to Plans (none where the kernel does not apply).
void addVectorCandidate(const std::vector<Prediction> &Ranking,
                        const PlanOptions &PO, const Stencil &S,
                        const StencilAnalysis &A, std::vector<Plan> &Plans,
                        std::vector<Prediction> &Predictions) {
  for (const Plan &P : Plans)
    if (std::holds_alternative<VectorLayout>(P.Family))
      return;
  for (const Prediction &R : Ranking) {
    if (R.VecK <= 1 || R.Spills)
      continue;
    Plan P;
    bool Planned = !makePlan(S, A, optionsOf(R, PO), P);
    assert(Planned && "the model ranks only configurations that plan");
    (void)Planned;
    P.Origin = "vector-cell candidate: the model's best vector-cell "
               "configuration (" + configLabel(R) + "), predicted " +
               llvm::formatv("{0:f1}", R.GFlops).str() + " GFLOP/s";
    Plans.push_back(P);
    Predictions.push_back(R);
    return;
  }
}

/// The device of --gpu, with --model-calibration's figures. False after
/// reporting an error.
bool chooseDevice(const DriverOptions &O, DeviceSpec &Calibrated) {
  const DeviceSpec *Found = findDevice(O.Gpu);
  if (!Found) {
    std::string Known;
    for (const DeviceSpec &D : deviceTable())
      Known += (Known.empty() ? "" : ", ") + D.Name;
    llvm::errs() << "an5dc: error: --gpu '" << O.Gpu
                 << "' is not a GPU the model knows; use one of " << Known
                 << "\n";
    return false;
  }
  Calibrated = *Found;
  if (!O.Calibration.empty()) {
    // OVERHEAD,LATENCY,EDGE[,VECTOR[,OVERHEAD_2D,EDGE_2D[,EXPOSED_2D[,
    // OVERHEAD_3D[,EDGE_3D[,ROW_3D]]]]]]: the 2D float figures, then the 3D
    // float ones; without them OVERHEAD and EDGE serve there too, ROW_3D is
    // 0 (and the device's exposed global-memory fraction stays).
    llvm::SmallVector<llvm::StringRef, 6> Parts;
    llvm::StringRef(O.Calibration).split(Parts, ',');
    bool Bad = Parts.size() < 3 || Parts.size() == 5 || Parts.size() > 10 ||
               Parts[0].getAsDouble(Calibrated.OverheadInstr) ||
               Parts[1].getAsDouble(Calibrated.LatencyCycles) ||
               Parts[2].getAsDouble(Calibrated.EdgeSlowdown);
    Calibrated.OverheadInstr2DFloat = Calibrated.OverheadInstr;
    Calibrated.OverheadInstr3DFloat = Calibrated.OverheadInstr;
    Calibrated.RowOverheadInstr3DFloat = 0;
    Calibrated.EdgeSlowdown3DFloat = Calibrated.EdgeSlowdown;
    Calibrated.EdgeSlowdown2DFloat = Calibrated.EdgeSlowdown;
    if (!Bad && Parts.size() >= 4)
      Bad = Parts[3].getAsDouble(Calibrated.VectorOverheadInstr);
    if (!Bad && Parts.size() >= 6)
      Bad = Parts[4].getAsDouble(Calibrated.OverheadInstr2DFloat) ||
            Parts[5].getAsDouble(Calibrated.EdgeSlowdown2DFloat);
    if (!Bad && Parts.size() >= 7)
      Bad = Parts[6].getAsDouble(Calibrated.GlobalExposed2DFloat);
    if (!Bad && Parts.size() >= 8)
      Bad = Parts[7].getAsDouble(Calibrated.OverheadInstr3DFloat);
    if (!Bad && Parts.size() >= 9)
      Bad = Parts[8].getAsDouble(Calibrated.EdgeSlowdown3DFloat);
    if (!Bad && Parts.size() == 10)
      Bad = Parts[9].getAsDouble(Calibrated.RowOverheadInstr3DFloat);
    if (Bad) {
      llvm::errs() << "an5dc: error: --model-calibration takes three, four, "
                      "six to ten numbers, e.g. 24,12,3 or 24,12,3,6 "
                      "or 16,8,3,8,12,2 or 16,8,3,8,12,2,0.5 or "
                      "16,8,3,8,12,2,0.5,12 or 16,8,3,8,12,2,0.5,12,2 or "
                      "16,8,3,8,12,2,0.5,12,2,8\n";
      return false;
    }
  }
  return true;
}

/// The plans to emit for PO (whose Gpu is Dev's): the user's parameters
/// when -bT, -bS and --sl are all given; otherwise the model's best for
/// --gpu and --size among the configurations that keep what the user gave
/// (its top K with --autotune=K). With --model or --model-csv prints the
/// ranking and leaves Plans empty. False after reporting an error.
bool choosePlans(const DriverOptions &O, const Stencil &S,
                 const StencilAnalysis &A, const PlanOptions &PO,
                 const DeviceSpec *Dev, std::vector<Plan> &Plans,
                 std::vector<Prediction> &Predictions) {
  // A 1D stencil is planned as 2D with one row: its size is 1 x N
  // (default N = 2^24, the cells of a 4096^2 grid).
  const unsigned UserDims = S.numSpaceDims() - S.VirtualDims;
  ProblemSize Size = paperSize(S.numSpaceDims());
  if (S.VirtualDims)
    Size.Extent = {1, int64_t(1) << 24};
  std::string Error;
  if (O.Size && !parseProblemSize(*O.Size, UserDims, Size, Error)) {
    llvm::errs() << "an5dc: error: " << Error << "\n";
    return false;
  }
  if (S.VirtualDims && Size.Extent.size() == UserDims)
    Size.Extent.insert(Size.Extent.begin(), S.VirtualDims, 1);
  unsigned Autotune = O.Autotune.value_or(0);
  bool Listing = O.Model || O.ModelCsv;
  if (PO.Run == Scheme::Naive && (Listing || Autotune)) {
    llvm::errs() << "an5dc: error: " << (Autotune ? "--autotune" : "--model")
                 << " chooses N.5D parameters; it has nothing to choose with "
                    "--scheme=naive\n";
    return false;
  }
  bool AllGiven = O.BT && O.BS && O.StreamBlock;
  if (PO.Run == Scheme::N5D && (Listing || Autotune > 1 || !AllGiven)) {
    SearchConstraints C;
    std::string Fixed;
    if (O.BT) {
      C.BT = PO.BT;
      Fixed += " -bT " + std::to_string(PO.BT);
    }
    if (O.BS) {
      C.BS = PO.BS;
      Fixed += " -bS " + *O.BS;
    }
    if (O.StreamBlock) {
      C.StreamBlock = PO.StreamBlock;
      Fixed += " --sl " + std::to_string(PO.StreamBlock);
    }
    if (O.Cells) {
      C.Cells = PO.Cells;
      Fixed += " --cells " + std::to_string(PO.Cells);
    }
    if (O.HaloRows) {
      C.HaloRows = PO.HaloRows;
      if (PO.HaloRows)
        Fixed += " --halo-rows";
    }
    if (O.VecK) {
      C.VecK = PO.VecK;
      if (PO.VecK > 1)
        Fixed += " --kvec " + std::to_string(PO.VecK);
    }
    if (!Fixed.empty())
      Fixed = "given" + Fixed;
    std::vector<Prediction> Ranking =
        rankConfigurations(S, A, PO, C, Size, *Dev);
    if (O.ModelCsv) {
      printRankingCsv(llvm::outs(), Ranking);
      return true;
    }
    if (O.Model) {
      printRanking(llvm::outs(), S, A, Ranking, Size, *Dev, O.ModelTop);
      if (!Ranking.empty())
        return true;
      Plan P;
      llvm::errs() << "an5dc: error: no configuration of the search space "
                      "fits "
                   << Dev->Name << [&]() -> std::string {
        std::optional<PlanError> E = makePlan(S, A, PO, P);
        return E ? ": " + E->Message : "";
      }() << "\n";
      return false;
    }
    if (!Ranking.empty() && Ranking.front().Spills)
      llvm::errs() << "an5dc: warning: every configuration is predicted to "
                      "spill registers on "
                   << Dev->Name << "; using the fastest predicted\n";
    size_t Count = std::min<size_t>(Ranking.size(), std::max(1u, unsigned(Autotune)));
    for (size_t I = 0; I < Count; ++I) {
      Plan P;
      bool Planned = !makePlan(S, A, optionsOf(Ranking[I], PO), P);
      assert(Planned && "the model ranks only configurations that plan");
      (void)Planned;
      P.Origin = modelOrigin(Ranking[I], *Dev, O.GpuOrigin, Size, Fixed, I,
                             Count);
      Plans.push_back(P);
      Predictions.push_back(Ranking[I]);
    }
    if (Autotune > 1 && !O.VecK)
      addVectorCandidate(Ranking, PO, S, A, Plans, Predictions);
    if (!Plans.empty())
      return true;
  }
  Plan P;
  if (std::optional<PlanError> E = makePlan(S, A, PO, P)) {
    llvm::errs() << "an5dc: error: " << E->Message << "\n";
    return false;
  }
  if (PO.Run == Scheme::N5D) {
    P.Origin = "given on the command line (-bT " + std::to_string(PO.BT) +
               " -bS " + O.BS.value_or("") + " --sl " +
               std::to_string(PO.StreamBlock) +
               (O.Cells
                    ? " --cells " + std::to_string(PO.Cells)
                    : std::string()) +
               (PO.HaloRows ? " --halo-rows" : "") +
               (PO.VecK > 1 ? " --kvec " + std::to_string(PO.VecK)
                            : std::string()) +
               ")";
    Predictions.push_back(predict(S, A, P, Size, *Dev));
  }
  Plans.push_back(P);
  return true;
}

/// After emission: --dump=kernel's bodies; a verifier finding (an5dc's bug,
/// not the user's: nothing is written, InternalErrorStatus); else Text
/// becomes the output (not under --dump=kernel). Returns the status.
int finishEmission(const DriverOptions &O, GeneratedKernels &Kernels,
                   std::string &Text, DriverOutput &Out) {
  if (O.Dump == DumpStage::Kernel)
    for (const KernelBody &B : Kernels.Bodies)
      B.dump(llvm::outs());
  for (const std::string &E : Kernels.Errors)
    llvm::errs() << "an5dc: internal error: the generated " << E
                 << "; please report this with the input file\n";
  if (!Kernels.Errors.empty()) {
    Out.InternalErrors = std::move(Kernels.Errors);
    return InternalErrorStatus;
  }
  if (O.Dump == DumpStage::Kernel)
    return 0;
  Out.Cuda = std::move(Text);
  Out.Emitted = true;
  return 0;
}

/// The pipeline for a time step of several fields (StencilForm::Fields):
/// its own model, analysis, plan and emitter; the naive scheme only.
int runFields(const DriverOptions &O, const Stencil &S, SourceSession &Session,
              DriverOutput &Out) {
  Diagnoser &D = Session.diags();
  std::optional<FieldsModel> M = buildFieldsModel(S, D);
  if (!M)
    return 1;
  if (O.Dump == DumpStage::Scop) {
    M->dump(S, llvm::outs());
    return 0;
  }
  std::optional<FieldsAnalysis> A = analyzeFields(S, *M, D);
  if (!A)
    return 1;
  if (O.Dump == DumpStage::Stencil) {
    S.dump(llvm::outs());
    A->dump(S, llvm::outs());
    return 0;
  }
  if (O.Dump == DumpStage::Analysis) {
    A->dump(S, llvm::outs());
    return 0;
  }
  if (!O.EmitCuda && O.Dump == DumpStage::None && !O.Model && !O.ModelCsv) {
    llvm::errs() << S.FileName << ": stencil '" << S.Function
                 << "' accepted: " << S.GridDims << "D, " << S.Fields.size()
                 << " fields, " << S.FieldStatements.size()
                 << " statements per step\n";
    return 0;
  }
  // What the N.5D scheme of one array takes does not apply yet: said, not
  // ignored.
  if (O.Mpi) {
    llvm::errs() << "an5dc: error: --mpi is not available for a time step "
                    "of several fields yet\n";
    return 1;
  }
  FieldsOptions FO;
  FO.Run = O.Run;
  // 1D has nothing to tile; --scheme=naive asks for none.
  const bool Naive = S.GridDims == 1 || O.Run == Scheme::Naive;
  if (Naive)
    FO.Run = Scheme::Naive;
  // What neither scheme for several fields reads is said, not ignored.
  const std::pair<bool, const char *> Unused[] = {
      {Naive && O.BT.has_value(), "-bT"},
      {Naive && O.BS.has_value(), "-bS"},
      {Naive && O.StreamBlock.has_value(), "--sl"},
      {O.Cells.has_value(), "--cells"},
      {O.HaloRows.has_value(), "--halo-rows"},
      {O.VecK.has_value(), "--kvec"},
      {O.Kernel.has_value(), "--opt"},
      {O.Prefetch.has_value(), "--prefetch"},
      {O.MinBlocks.has_value(), "--min-blocks"},
      {O.SmVec.has_value(), "--sm-vec"},
      {O.AsyncPrefetch.has_value(), "--async-prefetch"}};
  for (const auto &[Given, Name] : Unused)
    if (Given)
      llvm::errs() << "an5dc: warning: " << Name
                   << " has no effect on a time step of several fields"
                   << (Naive ? " run with the naive scheme" : "") << "\n";
  std::string Fixed;
  if (!Naive && O.BT) {
    FO.BT = *O.BT;
    Fixed += " -bT " + std::to_string(*O.BT);
  }
  if (!Naive && O.StreamBlock) {
    FO.StreamBlock = *O.StreamBlock;
    Fixed += " --sl " + std::to_string(*O.StreamBlock);
  }
  if (!Naive && O.BS && !O.BS->empty()) {
    if (!parseBlockSizes(*O.BS, FO.Tile)) {
      llvm::errs() << "an5dc: error: -bS '" << *O.BS
                   << "' is not a size or a pair of sizes, e.g. -bS 128 or "
                      "-bS 8,32\n";
      return 1;
    }
    Fixed += " -bS " + *O.BS;
  }
  DeviceSpec Dev;
  if (!chooseDevice(O, Dev))
    return 1;
  ProblemSize Size = paperSize(S.GridDims);
  if (S.GridDims == 1)
    Size.Extent = {int64_t(1) << 24};
  std::string Error;
  if (O.Size && !parseProblemSize(*O.Size, S.GridDims, Size, Error)) {
    llvm::errs() << "an5dc: error: " << Error << "\n";
    return 1;
  }
  // The model chooses what the command line leaves open: the scheme, and
  // N.5D's parameters unless -bT, -bS and --sl are all given.
  const bool AllGiven = O.BT && O.BS && O.StreamBlock;
  const bool Listing = O.Model || O.ModelCsv;
  const unsigned Autotune = O.Autotune.value_or(0);
  if (Naive && Autotune > 1) {
    llvm::errs() << "an5dc: error: --autotune chooses among N.5D "
                    "configurations; "
                 << (S.GridDims == 1 ? "several fields in 1D run"
                                     : "--scheme=naive runs")
                 << " the naive scheme\n";
    return 1;
  }
  FieldsPlan P;
  // --autotune=K: the model's top K N.5D configurations, P the first.
  std::vector<FieldsPlan> Candidates;
  std::optional<FieldsPrediction> Chosen;
  if (Listing || (!Naive && (!AllGiven || Autotune > 1))) {
    std::vector<FieldsPrediction> Ranking =
        rankFieldsConfigurations(S, *A, FO, Size, Dev);
    if (O.ModelCsv) {
      printFieldsRankingCsv(llvm::outs(), Ranking);
      return 0;
    }
    if (O.Model) {
      printFieldsRanking(llvm::outs(), S, Ranking, Size, Dev, O.ModelTop);
      if (!Ranking.empty())
        return 0;
    }
    if (Ranking.empty()) {
      std::optional<PlanError> E = makeFieldsPlan(S, *A, FO, Dev, P);
      llvm::errs() << "an5dc: error: no configuration of the search space "
                      "fits "
                   << Dev.Name << (E ? ": " + E->Message : std::string())
                   << "\n";
      return 1;
    }
    Chosen = Ranking.front();
    if (std::optional<PlanError> E =
            makeFieldsPlan(S, *A, fieldsOptionsOf(*Chosen), Dev, P)) {
      assert(false && "the model ranks only configurations that plan");
      llvm::errs() << "an5dc: error: " << E->Message << "\n";
      return 1;
    }
    P.Origin = "chosen by the performance model (an5dc --model) for " +
               Dev.Name +
               (O.GpuOrigin.empty() ? "" : " (" + O.GpuOrigin + ")") +
               ", grid " + sizeText(Size) +
               (Fixed.empty() ? "" : ", given" + Fixed) +
               llvm::formatv(": predicted {0:f1} GFLOP/s, limited by {1}",
                             Chosen->GFlops, Chosen->Limit)
                   .str();
    if (Autotune > 1 && P.Run == Scheme::Naive)
      llvm::errs() << "an5dc: warning: --autotune=" << Autotune
                   << " chooses among N.5D configurations, and the model "
                      "predicts the naive scheme faster on "
                   << Dev.Name << "; it runs the naive scheme\n";
    for (const FieldsPrediction &R : Ranking) {
      if (Candidates.size() >= Autotune || P.Run == Scheme::Naive)
        break;
      FieldsPlan C;
      if (R.Run != Scheme::N5D ||
          makeFieldsPlan(S, *A, fieldsOptionsOf(R), Dev, C))
        continue;
      C.Origin = P.Origin;
      Candidates.push_back(std::move(C));
    }
  } else {
    if (std::optional<PlanError> E = makeFieldsPlan(S, *A, FO, Dev, P)) {
      llvm::errs() << "an5dc: error: " << E->Message << "\n";
      return 1;
    }
    Chosen = predictFields(S, *A, P, Size, Dev);
    P.Origin = Naive ? (S.GridDims == 1 ? "one dimension: the naive scheme"
                                        : "--scheme=naive")
                     : "given on the command line (" + Fixed.substr(1) + ")";
  }
  if (O.Dump == DumpStage::Model) {
    Chosen->dump(llvm::outs());
    return 0;
  }
  if (O.Dump == DumpStage::Plan) {
    P.dump(llvm::outs());
    return 0;
  }
  SourceText Src = describeSource(Session, S, O.Frontend.CompilerArgs);
  GeneratedKernels Kernels;
  Kernels.Drop = O.KernelDrop;
  if (Candidates.size() < 2)
    Candidates = {P};
  std::string Text = emitFieldsCuda(S, *A, Candidates, Src, Kernels);
  return finishEmission(O, Kernels, Text, Out);
}

/// Runs the pipeline on the calling thread (runDriver's contract).
int runPipeline(const DriverOptions &O, DriverOutput &Out) {
  std::unique_ptr<SourceSession> Session = SourceSession::create(O.Frontend);
  std::optional<Stencil> S = extractStencil(*Session);
  if (!S)
    return 1;
  if (S->Form == StencilForm::Fields)
    return runFields(O, *S, *Session, Out);
  Diagnoser &D = Session->diags();
  std::optional<ScopModel> M = buildScopModel(*S, D);
  if (!M)
    return 1;
  if (O.Dump == DumpStage::Scop) {
    M->dump(llvm::outs());
    return 0;
  }
  AnalysisOptions AO;
  AO.FastMath = O.FastMath;
  std::optional<StencilAnalysis> A = analyzeStencil(*S, *M, D, AO);
  if (!A)
    return 1;
  if (O.Dump == DumpStage::Stencil) {
    S->dump(llvm::outs());
    A->dump(llvm::outs());
    return 0;
  }
  if (O.Dump == DumpStage::Analysis) {
    A->dump(llvm::outs());
    return 0;
  }
  if (!O.EmitCuda && O.Dump != DumpStage::Plan &&
      O.Dump != DumpStage::Model && O.Dump != DumpStage::Kernel &&
      !O.Model && !O.ModelCsv) {
    llvm::errs() << S->FileName << ": stencil '" << S->Function
                 << "' accepted: " << S->numSpaceDims() << "D, radius "
                 << A->Radius << ", " << shapeName(A->StencilShape) << "\n";
    return 0;
  }
  PlanOptions PO;
  PO.Run = O.Run.value_or(Scheme::N5D);
  PO.Kernel = O.Kernel.value_or(KernelKind::Auto);
  if (O.MinBlocks)
    PO.MinBlocks = *O.MinBlocks;
  PO.SmVec = O.SmVec.value_or(false);
  if (O.Prefetch)
    PO.Prefetch = *O.Prefetch;
  PO.AsyncPrefetch = O.AsyncPrefetch.value_or(true);
  PO.Mpi = O.Mpi;
  if (O.Autotune && (*O.Autotune < 1 || *O.Autotune > MaxAutotune)) {
    llvm::errs() << "an5dc: error: --autotune=" << *O.Autotune
                 << " is out of range; use 1 to " << MaxAutotune
                 << " candidates\n";
    return 1;
  }
  if (PO.Run == Scheme::Naive) {
    const std::pair<bool, const char *> NotNaive[] = {
        {O.BT.has_value(), "-bT"},
        {O.BS.has_value(), "-bS"},
        {O.StreamBlock.has_value(), "--sl"},
        {O.Cells.has_value(), "--cells"},
        {O.HaloRows.has_value(), "--halo-rows"},
        {O.VecK.has_value(), "--kvec"},
        {O.Kernel.has_value(), "--opt"},
        {O.SmVec.has_value(), "--sm-vec"},
        {O.Prefetch.has_value(), "--prefetch"},
        {O.AsyncPrefetch.has_value(), "--async-prefetch"}};
    for (const auto &[Given, Name] : NotNaive)
      if (Given)
        llvm::errs() << "an5dc: warning: " << Name
                     << " has no effect with --scheme=naive\n";
  } else if (PO.Kernel != KernelKind::Auto) {
    if (std::optional<PlanError> E = kernelRefusal(*S, *A, PO.Kernel)) {
      D.error(Reject::KernelNotApplicable, E->Where, E->Message);
      return 1;
    }
    if (PO.Kernel == KernelKind::Assoc && A->Associative->OutOfOrder)
      D.warning(A->Associative->OutOfOrder->Range,
                "--opt=assoc adds the terms of each row of the streaming "
                "dimension when the row arrives (terms that read no cell "
                "first, then the rows in increasing order), but C adds this "
                "term after one that comes later in that order: the sums "
                "are reassociated and may differ from the C loop in the last "
                "bits; write the terms in that order to keep C's results "
                "(--opt=auto keeps them by not choosing this kernel)");
  }
  // Three time levels run from device memory on one GPU, one plan per file.
  if (A->TimeLevels == 3 && (O.Mpi || O.Autotune.value_or(0) > 1)) {
    D.error(Reject::KernelNotApplicable, S->Write.Range,
            std::string(O.Mpi ? "--mpi" : "--autotune") +
                " handles two time levels; this update writes a third plane "
                "('% 3'): drop " + (O.Mpi ? "--mpi" : "--autotune") +
                " (three levels run on one GPU, in its memory)");
    return 1;
  }
  int VecK = O.VecK.value_or(1);
  if (PO.Run == Scheme::N5D && VecK > 1) {
    if (std::optional<PlanError> E = vectorRefusal(*S, *A, VecK)) {
      D.error(Reject::KernelNotApplicable, E->Where, E->Message);
      return 1;
    }
  }
  if (O.PtxasOpt != "auto") {
    if (O.PtxasOpt.size() != 1 || O.PtxasOpt[0] < '1' ||
        O.PtxasOpt[0] > '3') {
      llvm::errs() << "an5dc: error: --ptxas-opt '" << O.PtxasOpt
                   << "' is not auto, 1, 2 or 3\n";
      return 1;
    }
    PO.PtxasOpt = O.PtxasOpt[0] - '0';
  }
  PO.BT = O.BT.value_or(4);
  PO.StreamBlock = O.StreamBlock.value_or(128);
  PO.Cells = O.Cells.value_or(1);
  PO.HaloRows = O.HaloRows.value_or(false);
  PO.VecK = VecK;
  if (O.BS && !O.BS->empty() && !parseBlockSizes(*O.BS, PO.BS)) {
    llvm::errs() << "an5dc: error: -bS '" << *O.BS
                 << "' is not a size or a pair of sizes, e.g. -bS 64 or "
                    "-bS 16,8\n";
    return 1;
  }
  std::vector<Plan> Plans;
  std::vector<Prediction> Predictions;
  DeviceSpec Dev;
  if (!chooseDevice(O, Dev))
    return 1;
  PO.Gpu = Dev;
  if (std::optional<PlanError> E =
          checkOptions(PO, S->numSpaceDims(), S->Elem,
                       S->numSpaceDims() - S->VirtualDims)) {
    llvm::errs() << "an5dc: error: " << E->Message << "\n";
    return 1;
  }
  if (!choosePlans(O, *S, *A, PO, &Dev, Plans, Predictions))
    return 1;
  if (Plans.empty())
    return 0; // --model printed its table
  if (O.Dump == DumpStage::Plan) {
    for (const Plan &P : Plans)
      P.dump(llvm::outs());
    for (const std::string &L : runPaths(Plans.front()))
      llvm::outs() << L << "\n";
    return 0;
  }
  if (O.Dump == DumpStage::Model) {
    if (Predictions.empty())
      llvm::errs() << "an5dc: error: --dump=model describes the N.5D scheme; "
                      "the naive scheme has no model\n";
    for (const Prediction &R : Predictions)
      R.dump(llvm::outs());
    return Predictions.empty() ? 1 : 0;
  }
  if (D.hasErrors())
    return 1;
  SourceText Src = describeSource(*Session, *S, O.Frontend.CompilerArgs);
  GeneratedKernels Kernels;
  Kernels.Drop = O.KernelDrop;
  std::string Text = emitCuda(*S, *A, Plans, Src, Kernels);
  if (int Status = finishEmission(O, Kernels, Text, Out);
      Status != 0 || !Out.Emitted)
    return Status;
  const Plan &Build = buildLevelPlan(Plans);
  if (Build.PtxasOpt != 3 && PO.PtxasOpt == 0)
    Out.BuildNote = "with nvcc " + nvccFlags(Plans) + ": " +
                    Build.PtxasReason + " (--ptxas-opt=3 turns this off)";
  return 0;
}

} // namespace

int an5dc::runDriver(const DriverOptions &O, DriverOutput &Out) {
  Out = DriverOutput();
  // Deep update expressions recurse deeply in clang's parser and in every
  // stage (an5d/Stack.h).
  return runOnLargeStack([&] { return runPipeline(O, Out); });
}
