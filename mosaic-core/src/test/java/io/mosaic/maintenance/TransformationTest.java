package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TestPool;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transformations other than moves (issue 25): a codec change and a re-sort, on real files. */
class TransformationTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  @Test
  void codecChangeRewritesOnTheSameDeviceAndAppendsFollowIt() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> expected = new ArrayList<>();
    MosaicTable table = TableFixtures.orders(dir.resolve("orders"), pool, 0.01, expected);
    Manifest before = table.latest();
    SegmentEntry old = before.segmentsOf("o_comment").get(0);
    Codec other = old.codec() == Codec.LZ4 ? Codec.NONE : Codec.LZ4;

    Migrator migrator = new Migrator(table);
    Migrator.Plan plan = migrator.planCodec("o_comment", other);
    assertThat(plan.moves()).hasSize(before.segmentsOf("o_comment").size());
    Manifest after = migrator.apply(plan, new Migrator.Listener() {});

    assertThat(after.version()).isEqualTo(before.version() + 1);
    for (SegmentEntry s : after.segmentsOf("o_comment")) {
      assertThat(s.device()).isEqualTo(old.device());
      assertThat(s.codec()).isEqualTo(other);
    }
    assertThat(after.properties())
        .containsEntry(MosaicTable.codecProperty("o_comment"), other.configName());
    assertThat(TableRoundTripTest.rows(table, after, alloc)).isEqualTo(expected);
    assertThat(migrator.planCodec("o_comment", other).moves()).isEmpty();
    // The old file was retired.
    assertThat(Files.exists(pool.device(old.device()).resolve(old.path()))).isFalse();

    // An append writes the column with its codec, not its device's.
    Manifest appended =
        TableFixtures.appendRows(table, TpchBatches.ORDERS, expected.subList(0, 10));
    SegmentEntry last =
        appended.segmentsOf("o_comment").get(appended.segmentsOf("o_comment").size() - 1);
    assertThat(last.codec()).isEqualTo(other);

    // A move to another device re-encodes with that device's codec and drops the override.
    String elsewhere = old.device().equals("ssd") ? "hdd" : "ssd";
    Manifest moved =
        migrator.apply(migrator.plan(Map.of("o_comment", elsewhere)), new Migrator.Listener() {});
    assertThat(moved.properties()).doesNotContainKey(MosaicTable.codecProperty("o_comment"));
    assertThat(moved.segmentsOf("o_comment"))
        .allMatch(s -> s.codec() == pool.device(elsewhere).spec().codec());
  }

  @Test
  void reSortPrunesRowGroupsKeepsEveryRowAndRecordsTheClustering() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> rows = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator()) {
      TpchBatches.lineitem(
          0.005, 0, Long.MAX_VALUE, 8192, a, b -> rows.addAll(TableFixtures.values(b)));
    }
    Map<String, String> properties =
        new LinkedHashMap<>(TableFixtures.spread(TpchBatches.LINEITEM));
    properties.put(TableProperties.ROW_GROUP_ROWS, "2000");
    MosaicTable table =
        TableFixtures.write(dir.resolve("lineitem"), pool, TpchBatches.LINEITEM, rows, properties);
    Manifest before = table.latest();
    int groups = before.rowGroups().size();
    assertThat(groups).isGreaterThan(5);
    assertThat(TableSorter.sortedBy(before, "l_shipdate")).isFalse();
    int shipdate = TpchBatches.LINEITEM.indexOf("l_shipdate");
    List<Integer> dates = rows.stream().map(r -> (Integer) r.get(shipdate)).sorted().toList();
    Predicate month =
        Predicate.of(
            Predicate.between(
                "l_shipdate", dates.get(dates.size() / 2), dates.get(dates.size() / 2 + 30)));
    int readBefore = RowGroupFilter.bind("lineitem", before, month).select(0, groups).size();

    Manifest sorted = new TableSorter(table).sort("l_shipdate", new TableSorter.Listener() {});

    assertThat(sorted.version()).isEqualTo(before.version() + 1);
    assertThat(sorted.properties()).containsEntry(TableProperties.CLUSTERING, "l_shipdate");
    assertThat(sorted.rowCount()).isEqualTo(before.rowCount());
    assertThat(TableSorter.sortedBy(sorted, "l_shipdate")).isTrue();
    // Every column stays on its device.
    for (SegmentEntry s : sorted.segments()) {
      assertThat(s.device()).isEqualTo(before.segmentsOf(s.column()).get(0).device());
    }
    // The rows are the old ones in l_shipdate order (a stable sort).
    List<List<Object>> expected = new ArrayList<>(rows);
    expected.sort(Comparator.comparing(r -> (Integer) r.get(shipdate)));
    assertThat(TableRoundTripTest.rows(table, sorted, alloc)).isEqualTo(expected);
    int readAfter = RowGroupFilter.bind("lineitem", sorted, month).select(0, groups).size();
    assertThat(readAfter).isLessThan(readBefore).isLessThanOrEqualTo(2);
    // The old segments were retired: one file per segment of the new version is left.
    try (var files = Files.walk(dir.resolve("devices"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".parquet")).count())
          .isEqualTo(sorted.segments().size());
    }
  }
}
