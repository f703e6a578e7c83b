//===- N5DStream.cpp - The N.5D kernels' streaming loop as operations -----===//
//
// The lowering of the unrolled streaming loop (general, star and
// associative kernels) to kernel-body operations: level 0's read-ahead
// copies and loads, each level's shared stores, barrier, update or partial
// sums, the value kept outside the interior, and the last level's store.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <cassert>

using namespace an5d;
using namespace an5d::codegen;

std::string Emitter::inCell(int64_t RowsBack, bool Address) const {
  std::string Back = RowsBack ? str(RowsBack) + " * row_stride" : "";
  if (Cell == HaloCell) {
    assert(Address && "halo cells are only copied");
    return "in_next + halo_shift" + (Back.empty() ? "" : " - " + Back);
  }
  if (Cell == 0) {
    if (Address)
      return Back.empty() ? "in_next" : "in_next - " + Back;
    return Back.empty() ? "*in_next" : "in_next[-" + Back + "]";
  }
  std::string Shift = str(Cell) + " * " + cellStride();
  if (Address)
    return "in_next + " + Shift + (Back.empty() ? "" : " - " + Back);
  return "in_next[" + Shift + (Back.empty() ? "" : " - " + Back) + "]";
}

std::string Emitter::outCell(int64_t Back) const {
  std::string Ptr = Back ? "out" + str(Back) + "_next" : "out_next";
  return Cell ? Ptr + "[" + str(Cell) + " * " + cellStride() + "]"
              : "*" + Ptr;
}

void Emitter::olderRing(const KernelPlan &K) {
  int64_t Wanted = std::max<int64_t>(P.Prefetch, 1);
  OlderSlots = K.Unroll;
  for (int64_t R = Wanted + 1; R <= K.Unroll; ++R)
    if (K.Unroll % R == 0) {
      OlderSlots = R;
      break;
    }
  OlderAhead = std::min(Wanted, OlderSlots - 1);
}

std::string Emitter::olderLoad(const std::string &Row, int64_t Ahead,
                               std::string &Test) const {
  // Rows at either end of the stream may lie outside the array; the
  // interior blocks' fast loop holds none (blockRowsTest counts them).
  Test = Checks == Tests::None    ? std::string()
         : Checks == Tests::Cells ? interiorTest(Row)
                                  : "(unsigned)(" + Row + " - " + First[0] +
                                        ") <= row_span";
  std::string Index;
  if (Cell)
    Index = str(Cell) + " * " + cellStride();
  if (Ahead)
    Index += (Index.empty() ? "" : " + ") +
             (Ahead == 1 ? std::string("row_stride")
                         : str(Ahead) + " * row_stride");
  return Index.empty() ? "*older_next" : "older_next[" + Index + "]";
}

std::pair<std::string, Operand> Emitter::olderArg(int64_t Level,
                                                  int64_t Phase) const {
  int64_t Row = -Level * P.Hi[0];
  if (Level == 1) {
    std::string R = olderName(mod(Phase, OlderSlots));
    return {R, regValue(R, -1, Row)};
  }
  // Level Level - 2 computed this row 2 hi_0 phases ago (Plan::Ring spans
  // them).
  std::string R = reg(Level - 2, mod(Phase - 2 * P.Hi[0], P.Ring));
  return {R, regValue(R, Level - 2, Row)};
}

std::string Emitter::colOf() const {
  if (Cell == HaloCell)
    return "col_halo";
  if (Cell == 0)
    return "col";
  return "col + " + str(Cell) + " * " +
         (N == 2 ? "AN5D_BLOCK_X" : "AN5D_SM_WIDTH");
}

void Emitter::aheadCopy(const KernelPlan &K, int64_t RowOff, int64_t RowsBack,
                        int64_t Phase) {
  std::string Row = plus(It[0], RowOff);
  auto copy = [&](int64_t CellSlot) {
    KernelOp &C = op(KernelOpKind::CopyAsync);
    C.Dst = aheadSlot(CellSlot);
    C.Src = inCell(RowsBack, /*Address=*/true);
    C.Writes = {slotValue(CellSlot, RowOff)};
    if (Checks == Tests::None)
      return;
    C.Test = interiorTest(Row);
    // The edge tiles copy boundary values asynchronously too (zero-fill
    // of the address an5d_boundary_source gives), so their latency
    // overlaps like the interior's.
    C.ZeroFill = EdgeTiles;
    C.Alt = EdgeTiles ? boundaryCall("an5d_boundary_source", "bnd_plane", Row,
                                     ", &zeros")
                      : boundaryValue("bnd_plane", Row);
  };
  eachCell([&] { copy(mod(Phase, K.AheadSlots)); });
  if (P.haloRows()) {
    op(KernelOpKind::If).Test = "halo_thread";
    inHalo([&] { copy(mod(Phase, K.HaloSlots)); });
    end();
  }
  op(KernelOpKind::Commit);
}

void Emitter::haloStore(const KernelPlan &K, const std::string &Buf,
                        int64_t Phase) {
  assert(P.haloRows());
  // Level 1 shares level 0 of the row levelOneLag() rows back, which the
  // halo threads copied into this slot.
  int64_t Slot = mod(Phase - P.levelOneLag(), K.HaloSlots);
  int64_t Row = -P.levelOneLag();
  inHalo([&] {
    KernelOp &St = assign(KernelOpKind::SharedStore, Buf + "[" + colOf() + "]",
                          aheadSlot(Slot), slotValue(Slot, Row),
                          bufferValue(Buf, 0, 0, Row));
    St.Test = "halo_thread";
  });
}

void Emitter::levelKept(int64_t Level, int64_t Phase, const std::string &Row,
                        KernelOp &Sel) const {
  if (Checks == Tests::None)
    return;
  // Row Row is offset -hi_0 from the row level L - 1 computes in this
  // phase, so it sits where level L - 1 read it.
  int64_t RowOff = -Level * P.Hi[0];
  Sel.Test = interiorTest(Row);
  if (Level >= 2 && P.boundaryFromRegisters()) {
    Sel.Alt = reg(Level - 2, slotOf(Phase, -P.Hi[0]));
    Sel.Reads.push_back(regValue(Sel.Alt, Level - 2, RowOff));
  } else if (boundaryAhead(Level)) {
    Sel.Alt = bndName(Level, 0);
    Sel.Reads.push_back(boundaryValueOf(Sel.Alt, Level, RowOff));
  } else {
    Sel.Alt = boundaryValue(levelPlane(Level), Row);
  }
}

/// Shared buffer a level of an unrolled phase uses: buffers alternate per
/// level and row so that one __syncthreads per level separates a buffer's
/// reads from its next writes.
static std::string bufferName(const KernelPlan &K, int64_t Phase,
                              int64_t Level) {
  int64_t Sub = Phase * K.Degree + (Level - 1);
  return (Sub % 2) ? "sm_buffer1" : "sm_buffer0";
}

void Emitter::levelStep(const KernelPlan &K, int64_t Phase, int64_t Level) {
  int64_t D = K.Degree;
  int64_t RowOff = -Level * P.Hi[0];
  std::string Row = plus(It[0], RowOff);
  op(KernelOpKind::Comment).Note = "level " + str(Level) + " of row " + Row;
  op(KernelOpKind::Scope);
  std::string Buf = bufferName(K, Phase, Level);
  const std::vector<int64_t> &SharedRows = P.scalar().SharedRows;
  std::vector<Operand> Shared;
  for (size_t R = 0; R < SharedRows.size(); ++R)
    Shared.push_back(
        bufferValue(Buf, R, Level - 1, RowOff + SharedRows[R]));
  if (!SharedRows.empty()) {
    std::string Rows;
    for (int64_t O : SharedRows)
      Rows += (Rows.empty() ? "" : ", ") + plus(It[0], O - Level * P.Hi[0]);
    op(KernelOpKind::Comment).Note =
        "share level " + str(Level - 1) + " of row" +
        (SharedRows.size() > 1 ? "s " : " ") + Rows +
        " with the other columns";
    eachCell([&] {
      for (size_t R = 0; R < SharedRows.size(); ++R) {
        std::string Idx = R == 0 ? colOf()
                                 : (R == 1 ? std::string("")
                                           : str(R) + " * ") +
                                       "AN5D_SM_PLANE + " + colOf();
        std::string Reg = reg(Level - 1, slotOf(Phase, SharedRows[R]));
        assign(KernelOpKind::SharedStore, Buf + "[" + Idx + "]", Reg,
               regValue(Reg, Level - 1, RowOff + SharedRows[R]), Shared[R]);
      }
    });
    if (Level == 1 && P.haloRows())
      haloStore(K, Buf, Phase);
    op(KernelOpKind::Barrier);
  }
  std::vector<CellValue> Values;
  eachCell([&] {
    KernelOp &C = op(KernelOpKind::Compute);
    C.Type = Elem;
    C.Dst = valueName();
    C.Src = checkedName("an5d_update");
    C.Args = {SharedRows.empty() ? std::string("NULL") : Buf, colOf()};
    C.Reads = Shared;
    for (int64_t O = -P.Lo[0]; O <= P.Hi[0]; ++O) {
      C.Args.push_back(reg(Level - 1, slotOf(Phase, O)));
      C.Reads.push_back(regValue(C.Args.back(), Level - 1, RowOff + O));
    }
    for (const std::vector<int64_t> &O : cellNeighbourReads()) {
      C.Args.push_back(cellNeighbourArg(O, Buf, Level, Phase));
      C.Reads.push_back(cellNeighbourOperand(O, Buf, Level, Phase));
    }
    if (threeLevels()) {
      auto [Arg, Read] = olderArg(Level, Phase);
      C.Args.push_back(Arg);
      C.Reads.push_back(Read);
    }
    for (std::string &A : deviceArgList(true, Level))
      C.Args.push_back(std::move(A));
    C.Writes = {regValue(valueName(), Level, RowOff)};
    Values.push_back({valueName(), C.Writes});
  });
  finishCells(D, Level, Phase, Row, Values);
  end();
}

void Emitter::finishCells(int64_t D, int64_t Level, int64_t Phase,
                          const std::string &Row,
                          const std::vector<CellValue> &Values) {
  bool Assoc = P.Kernel == KernelKind::Assoc;
  int64_t RowOff = -Level * P.Hi[0];
  eachCell([&] {
    const CellValue &V = Values[Cell];
    if (Level == D) {
      KernelOp &St = op(KernelOpKind::GlobalStore);
      St.Test = "cell_stores" + cellSuffix() + " && (unsigned)(" + Row +
                " - row_first) <= store_span";
      St.Dst = outCell();
      St.Src = V.Text;
      St.Reads = V.Reads;
      return;
    }
    KernelOp &Sel = op(KernelOpKind::Select);
    Sel.Dst = Assoc ? incoming() : reg(Level, mod(Phase, P.Ring));
    Sel.Src = V.Text;
    Sel.Reads = V.Reads;
    levelKept(Level, Phase, Row, Sel);
    Sel.Writes = {regValue(Sel.Dst, Level, RowOff)};
    if (boundaryAhead(Level))
      boundaryAheadShift(Level);
  });
  // Three levels: the next launch reads level D - 1 too (the run's last
  // launch is of at most 2 steps, an5d_level_schedule, so the level before
  // is some launch's last).
  int64_t Back = D - Level;
  if (!threeLevels() || Level == D || Back > storedBack(D))
    return;
  eachCell([&] {
    KernelOp &St = op(KernelOpKind::GlobalStore);
    St.Test = "cell_stores" + cellSuffix() + " && (unsigned)(" + Row +
              " - row_first) <= store_span";
    St.Dst = outCell(Back);
    St.Src = reg(Level, mod(Phase, P.Ring));
    St.Reads = {regValue(St.Src, Level, RowOff)};
  });
}

void Emitter::assocStep(const KernelPlan &K, int64_t Phase, int64_t Level) {
  int64_t D = K.Degree;
  const AssociativeForm &F = *A.Associative;
  std::vector<int64_t> Planes = termPlanes(F);
  int64_t ArrOff = -(Level - 1) * P.Hi[0], RowOff = -Level * P.Hi[0];
  std::string Arrives = plus(It[0], ArrOff);
  std::string Row = plus(It[0], RowOff);
  op(KernelOpKind::Comment).Note = "level " + str(Level) + ": row " +
                                   Arrives + " of level " + str(Level - 1) +
                                   " arrives; row " + Row + " completes";
  op(KernelOpKind::Scope);
  std::string Buf = bufferName(K, Phase, Level);
  Operand InBuf = bufferValue(Buf, 0, Level - 1, ArrOff);
  if (!P.scalar().SharedRows.empty()) {
    eachCell([&] {
      assign(KernelOpKind::SharedStore, Buf + "[" + colOf() + "]", incoming(),
             regValue(incoming(), Level - 1, ArrOff), InBuf);
    });
    if (Level == 1 && P.haloRows())
      haloStore(K, Buf, Phase);
    op(KernelOpKind::Barrier);
  }
  std::vector<CellValue> Values;
  eachCell([&] {
    KernelOp &C = op(KernelOpKind::Compute);
    C.Src = checkedName("an5d_accumulate", termsDivide());
    if (!P.scalar().SharedRows.empty()) {
      C.Args = {Buf, colOf()};
      C.Reads.push_back(InBuf);
    }
    C.Args.push_back(incoming());
    C.Reads.push_back(regValue(incoming(), Level - 1, ArrOff));
    std::string Rows;
    // Plane PI's sum is of row Arrives - Planes[PI]: the first plane starts
    // it, the others add to what the earlier planes left.
    for (size_t PI = 0; PI < Planes.size(); ++PI) {
      int64_t Pl = Planes[PI];
      std::string Acc = accName(Level, mod(Phase - Pl, P.Ring));
      C.Args.push_back(Acc);
      if (PI)
        C.Reads.push_back(regValue(Acc, Level, ArrOff - Pl, PI));
      C.Writes.push_back(regValue(Acc, Level, ArrOff - Pl, PI + 1));
      Rows += std::string(Rows.empty() ? "" : ", ") + plus(Arrives, -Pl);
    }
    for (const std::vector<int64_t> &O : cellNeighbourPlane()) {
      C.Args.push_back(cellNeighbourArg(O, Buf, Level, Phase));
      C.Reads.push_back(cellNeighbourOperand(O, Buf, Level, Phase));
    }
    for (std::string &A : deviceArgList(termsDivide()))
      C.Args.push_back(std::move(A));
    C.Note = "rows " + Rows;
    // The row completing is Row, hi_0 rows behind the arriving one. Its sum
    // took its last term when row Row + Planes.back() arrived: now, or
    // earlier when every read lies above it (Planes.back() < 0 = hi_0).
    assert(Planes.back() <= P.Hi[0] && "a term reads past the reach");
    std::string Acc = accName(Level, mod(Phase - P.Hi[0], P.Ring));
    Operand Sum = regValue(Acc, Level, RowOff, Planes.size());
    std::vector<std::string> Args = {Acc};
    for (std::string &A : deviceArgList(finishDivides()))
      Args.push_back(std::move(A));
    // One cell uses its result once: no name needed.
    if (P.Cells == 1) {
      std::string Finish = checkedName("an5d_finish", finishDivides()) + "(";
      for (size_t I = 0; I < Args.size(); ++I)
        Finish += (I ? ", " : "") + Args[I];
      Values.push_back({Finish + ")", {Sum}});
      return;
    }
    KernelOp &Fin = op(KernelOpKind::Compute);
    Fin.Type = Elem;
    Fin.Dst = valueName();
    Fin.Src = checkedName("an5d_finish", finishDivides());
    Fin.Args = std::move(Args);
    Fin.Reads = {Sum};
    Fin.Writes = {regValue(valueName(), Level, RowOff)};
    Values.push_back({valueName(), Fin.Writes});
  });
  finishCells(D, Level, Phase, Row, Values);
  end();
}
void Emitter::streamLoop(const KernelPlan &K) {
  int64_t D = K.Degree;
  bool Assoc = P.Kernel == KernelKind::Assoc;
  op(KernelOpKind::Loop).Src = "for (;;)";
  for (int64_t Q = 0; Q < K.Unroll; ++Q) {
    KernelOp &Ph = op(KernelOpKind::Phase);
    Ph.N = Q;
    Ph.Note = "---- unrolled row " + str(Q) + " of " + str(K.Unroll) +
              " (ring slot " + str(mod(Q, P.Ring)) + ") ----";
    op(KernelOpKind::Break).Test = It[0] + " > stream_last";
    op(KernelOpKind::Comment).Note = "level 0 of row " + It[0];
    auto level0 = [&] {
      return Assoc ? incoming() : reg(0, mod(Q, P.Ring));
    };
    if (K.AheadSlots) {
      KernelOp &Wt = op(KernelOpKind::Wait);
      Wt.N = P.Prefetch - 1;
      Wt.Note = "row " + It[0] + "'s copy has landed";
      eachCell([&] {
        assign(KernelOpKind::Move, level0(), aheadSlot(mod(Q, K.AheadSlots)),
               slotValue(mod(Q, K.AheadSlots), 0), regValue(level0(), 0, 0));
      });
      aheadCopy(K, P.Prefetch, 0, Q + P.Prefetch);
    } else {
      eachCell([&] {
        auto load = [&](const std::string &Dst, int64_t Row) {
          std::string R = plus(It[0], Row);
          KernelOp &L = op(KernelOpKind::Load);
          L.Dst = Dst;
          L.Src = inCell(0, /*Address=*/false);
          if (Checks != Tests::None) {
            L.Test = interiorTest(R);
            L.Alt = boundaryValue("bnd_plane", R);
          }
          L.Writes = {regValue(Dst, 0, Row)};
        };
        if (P.Prefetch == 0) {
          load(level0(), 0);
          return;
        }
        auto move = [&](const std::string &Dst, const std::string &Src,
                        int64_t Row) {
          assign(KernelOpKind::Move, Dst, Src, regValue(Src, 0, Row),
                 regValue(Dst, 0, Row));
        };
        std::string Sfx = cellSuffix();
        move(level0(), "ahead_0" + Sfx, 0);
        for (int64_t F = 1; F < P.Prefetch; ++F)
          move("ahead_" + str(F - 1) + Sfx, "ahead_" + str(F) + Sfx, F);
        load("ahead_" + str(P.Prefetch - 1) + Sfx, P.Prefetch);
      });
    }
    coefRowLoads(K);
    if (threeLevels()) {
      // Level 1 reads the launch's older plane at the row it computes,
      // loaded OlderAhead rows earlier (olderRing); the row that many ahead
      // is loaded now.
      eachCell([&] {
        KernelOp &L = op(KernelOpKind::Load);
        L.Dst = olderName(mod(Q + OlderAhead, OlderSlots));
        L.Src = olderLoad(plus(It[0], OlderAhead - P.Hi[0]), OlderAhead,
                          L.Test);
        L.Alt = zero();
        L.Writes = {regValue(L.Dst, -1, OlderAhead - P.Hi[0])};
      });
    }
    for (int64_t L = 1; L <= D; ++L) {
      if (Assoc)
        assocStep(K, Q, L);
      else
        levelStep(K, Q, L);
    }
    KernelOp &Adv = op(KernelOpKind::Advance);
    Adv.Src = It[0];
    Adv.Args = {"in_next += row_stride;", "out_next += row_stride;"};
    if (threeLevels()) {
      Adv.Args.push_back("older_next += row_stride;");
      for (int64_t Back = 1; Back <= storedBack(D); ++Back)
        Adv.Args.push_back("out" + str(Back) + "_next += row_stride;");
    }
  }
  end();
}
