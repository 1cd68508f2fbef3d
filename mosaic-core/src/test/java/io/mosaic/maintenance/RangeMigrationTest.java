package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.Migrator.RangeTarget;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving row ranges of a column (issue 26, docs/row-ranges.md): segments are split at the range's
 * boundaries, every value survives the round trip, and untouched segments stay as they are.
 */
class RangeMigrationTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  // Column k starts on nvme (TestPool.IDS[0]); four appends of 3000 rows in row groups of 2000
  // give 8 row groups in 4 segments of 2: [0:2] [2:4] [4:6] [6:8].
  private MosaicTable table() throws IOException {
    return CrashWorkload.table(dir.resolve("t"), TestPool.fourDevices(dir), 4);
  }

  private static String deviceOf(Manifest m, int rowGroup) {
    return m.segmentFor("k", rowGroup).device();
  }

  @Test
  void aRangeAcrossSegmentsMovesAloneAndBackWithEveryValue() throws IOException {
    MosaicTable table = table();
    Manifest before = table.latest();
    assertThat(before.rowGroups()).hasSize(8);
    assertThat(before.segmentsOf("k")).hasSize(4);
    List<List<Object>> expected = CrashWorkload.rows(0, 1, 2, 3);
    Migrator migrator = new Migrator(table);

    // [3:6] to hdd (zstd like nvme): segment [2:4] splits into [2:3] (rewritten on nvme) and
    // [3:4]; [4:6] moves whole, byte for byte; [0:2] and [6:8] are not touched.
    Migrator.Plan plan = migrator.planRanges(List.of(new RangeTarget("k", 3, 6, "hdd")));
    assertThat(plan.moves())
        .extracting(m -> m.toDevice() + m.range())
        .containsExactly("nvme[2:3]", "hdd[3:4]", "hdd[4:6]");
    assertThat(plan.describe()).contains("k[2:3]", "k[3:4]", "nvme (zstd) -> hdd (zstd)");
    Manifest moved = migrator.apply(plan, new Migrator.Listener() {});

    for (int g = 0; g < 8; g++) {
      assertThat(deviceOf(moved, g))
          .as("row group %d", g)
          .isEqualTo(g >= 3 && g < 6 ? "hdd" : "nvme");
    }
    assertThat(moved.segmentsOf("k")).hasSize(5);
    assertThat(moved.segmentsOf("k").get(0)).isEqualTo(before.segmentsOf("k").get(0));
    assertThat(moved.segmentsOf("k").get(4)).isEqualTo(before.segmentsOf("k").get(3));
    SegmentEntry whole = moved.segmentFor("k", 4);
    assertThat(whole.checksum()).isEqualTo(before.segmentFor("k", 4).checksum());
    assertThat(moved.storedColumns())
        .filteredOn(c -> c.column().equals("k"))
        .extracting(c -> c.device())
        .containsExactly("nvme", "hdd");
    assertThat(TableRoundTripTest.rows(table, moved, alloc)).isEqualTo(expected);
    assertThat(parquetFiles()).isEqualTo(moved.segments().size());

    // A range planned where it already is moves nothing; the whole column back merges nothing
    // but moves every hdd row group home.
    assertThat(migrator.planRanges(List.of(new RangeTarget("k", 3, 6, "hdd"))).moves()).isEmpty();
    Manifest home =
        migrator.apply(
            migrator.planRanges(List.of(new RangeTarget("k", 0, 8, "nvme"))),
            new Migrator.Listener() {});
    for (int g = 0; g < 8; g++) {
      assertThat(deviceOf(home, g)).isEqualTo("nvme");
    }
    assertThat(TableRoundTripTest.rows(table, home, alloc)).isEqualTo(expected);
    assertThat(parquetFiles()).isEqualTo(home.segments().size());
  }

  @Test
  void aRangeWithAnotherCodecIsReencodedAndTheRestOfItsSegmentStays() throws IOException {
    MosaicTable table = table();
    Migrator migrator = new Migrator(table);
    // ssd is lz4: row group 5 alone goes there, splitting [4:6] into [4:5] and [5:6].
    Manifest moved =
        migrator.apply(
            migrator.planRanges(List.of(new RangeTarget("k", 5, 6, "ssd"))),
            new Migrator.Listener() {});
    assertThat(moved.segmentFor("k", 5).device()).isEqualTo("ssd");
    assertThat(moved.segmentFor("k", 5).codec())
        .isEqualTo(table.pool().device("ssd").spec().codec());
    assertThat(moved.segmentFor("k", 4).device()).isEqualTo("nvme");
    assertThat(moved.segmentFor("k", 4).rowGroupCount()).isEqualTo(1);
    assertThat(TableRoundTripTest.rows(table, moved, alloc))
        .isEqualTo(CrashWorkload.rows(0, 1, 2, 3));
  }

  @Test
  void placementsAsUsersTypeThemNameRangesNextToWholeColumns() throws IOException {
    Map<String, String> placement = Migrator.parsePlacement("k[3:6]=hdd, v = hdd,s[0:1]=nvme");
    assertThat(placement)
        .containsExactly(
            Map.entry("k[3:6]", "hdd"), Map.entry("v", "hdd"), Map.entry("s[0:1]", "nvme"));
    MosaicTable table = table();
    Migrator.Plan plan = new Migrator(table).plan(placement);
    // k's range as planRanges plans it; v (on ssd) whole, all 4 segments; s (on raid) split.
    assertThat(plan.moves())
        .extracting(m -> m.column() + m.range() + "->" + m.toDevice())
        .containsExactly(
            "k[2:3]->nvme",
            "k[3:4]->hdd",
            "k[4:6]->hdd",
            "v[0:2]->hdd",
            "v[2:4]->hdd",
            "v[4:6]->hdd",
            "v[6:8]->hdd",
            "s[0:1]->nvme",
            "s[1:2]->raid");
    Manifest moved = new Migrator(table).apply(plan, new Migrator.Listener() {});
    assertThat(TableRoundTripTest.rows(table, moved, alloc))
        .isEqualTo(CrashWorkload.rows(0, 1, 2, 3));
  }

  @Test
  void aRangeOutsideTheTableIsRefusedBeforeAnythingMoves() throws IOException {
    MosaicTable table = table();
    Manifest before = table.latest();
    Migrator migrator = new Migrator(table);
    assertThatThrownBy(() -> migrator.planRanges(List.of(new RangeTarget("k", 6, 9, "hdd"))))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("range [6:9] of column k is not within the 8 row groups")
        .hasMessageContaining("plan the placement again");
    assertThatThrownBy(() -> migrator.planRanges(List.of(new RangeTarget("nope", 0, 1, "hdd"))))
        .hasMessageContaining("nope");
    assertThat(table.latest()).isEqualTo(before);
  }

  private long parquetFiles() throws IOException {
    try (var files = Files.walk(dir.resolve("devices"))) {
      return files.filter(f -> f.toString().endsWith(".parquet")).count();
    }
  }
}
