package io.mosaic.model;

import static io.mosaic.model.CostModelTest.HDD;
import static io.mosaic.model.CostModelTest.SSD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Units below a column in Eq. 3 (issue 26, docs/cost-model.md): within a range of rows the slowest
 * device bounds a scan, and the ranges of rows a scan's units cut it into are read one after
 * another.
 */
class RowRangeTest {
  private static final ColumnRef A = new ColumnRef("t", "a");
  private static final ColumnRef B = new ColumnRef("t", "b");

  @Test
  void namesRoundTripAndWholeColumnsHaveNone() {
    ColumnRef unit = RowRange.unit(A, 8, 10);
    assertThat(unit.column()).isEqualTo("a[8:10]");
    assertThat(RowRange.of(unit)).contains(new RowRange(8, 10));
    assertThat(RowRange.of(A)).isEmpty();
    assertThat(RowRange.of(new ColumnRef("t", "a[3:3]"))).isEmpty();
  }

  @Test
  void sharesCutTheScanAtEveryUnitBoundary() {
    // a[0:8] and a[8:10] with b[0:10]: two ranges, b spread over both by row groups.
    double[][] shares =
        RowRange.shares(
            List.of(RowRange.unit(A, 0, 8), RowRange.unit(A, 8, 10), RowRange.unit(B, 0, 10)));
    assertThat(shares).hasDimensions(3, 2);
    assertThat(shares[0]).containsExactly(1, 0);
    assertThat(shares[1]).containsExactly(0, 1);
    assertThat(shares[2][0]).isCloseTo(0.8, within(1e-12));
    assertThat(shares[2][1]).isCloseTo(0.2, within(1e-12));
    // One range (units over the same rows) or a whole column: Eq. 3 as it is.
    assertThat(RowRange.shares(List.of(RowRange.unit(A, 0, 10), RowRange.unit(B, 0, 10)))).isNull();
    assertThat(RowRange.shares(List.of(A, RowRange.unit(B, 0, 4)))).isNull();
  }

  @Test
  void aScanReadsItsRowRangesOneAfterAnother() {
    ColumnRef old = RowRange.unit(A, 0, 8);
    ColumnRef recent = RowRange.unit(A, 8, 10);
    CostModel model =
        CostModel.of(
            List.of(SSD, HDD),
            List.of(
                ColumnSize.uncompressed(old, 800_000_000L),
                ColumnSize.uncompressed(recent, 200_000_000L)));
    Placement split = new Placement(Map.of(old, "hdd", recent, "ssd"));
    DistinctScan both = DistinctScan.of(1, old, recent);
    double hdd = model.columnTime(HDD, old);
    double ssd = model.columnTime(SSD, recent);
    // Not max(hdd, ssd), as two whole columns on two devices would be: the rows come in order.
    assertThat(model.scanTime(both, split)).isCloseTo(hdd + ssd, within(1e-9));
    assertThat(model.scanTime(DistinctScan.of(1, recent), split)).isCloseTo(ssd, within(1e-9));
    assertThat(Optional.ofNullable(RowRange.shares(List.of(old, recent)))).isPresent();
  }
}
