package io.mosaic.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Codec;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestTest {
  private static final ColumnType INT = ColumnType.of(ColumnType.Kind.INT32);

  @Test
  void storedColumnsSumEachColumnsSegmentsPerDeviceAndCodec() {
    TableSchema schema =
        new TableSchema(List.of(new ColumnSpec("a", INT, false), new ColumnSpec("b", INT, false)));
    // Column b's row groups 1-2 moved to "fast" and row group 3 did not (a migration stopped half
    // way); its segments are listed out of row group order, as a manifest may list them.
    Manifest m =
        new Manifest(
            "t",
            3,
            "migrate",
            Instant.EPOCH,
            schema,
            Map.of(),
            List.of(10L, 10L, 10L, 10L),
            List.of(
                segment("b", "slow", Codec.LZ4, 3, 1, 400, 900),
                segment("a", "slow", Codec.LZ4, 0, 4, 1000, 4000),
                segment("b", "fast", Codec.ZSTD, 1, 2, 300, 2000),
                segment("b", "slow", Codec.LZ4, 0, 1, 100, 1000)),
            new java.util.TreeMap<>(Map.of(1, DeletedRows.of(3, 5, 9))));
    assertThat(m.storedColumns())
        .containsExactly(
            new StoredColumn("a", "slow", Codec.LZ4, 1, 1000, 4000, "0:4"),
            new StoredColumn("b", "slow", Codec.LZ4, 2, 500, 1900, "0:1,3:4"),
            new StoredColumn("b", "fast", Codec.ZSTD, 1, 300, 2000, "1:3"));
  }

  private static SegmentEntry segment(
      String column,
      String device,
      Codec codec,
      int first,
      int count,
      long compressed,
      long uncompressed) {
    return new SegmentEntry(
        column,
        device,
        column + "-" + first + ".parquet",
        codec,
        first,
        count,
        compressed + 100,
        compressed,
        uncompressed,
        "crc32c:0",
        Collections.nCopies(count, new RowGroupStats(null, null, 0)),
        List.of());
  }
}
