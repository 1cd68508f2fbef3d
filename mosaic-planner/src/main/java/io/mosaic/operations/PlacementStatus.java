package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;

import io.mosaic.format.StoredColumn;
import java.util.List;

/**
 * {@code placement}: where each column of a table's latest version lives now, one row per column,
 * device and codec (Spark's {@code CALL placement}, Trino's {@code "t$placement"}), with the row
 * groups each holds ({@code 0:6,8:10}; docs/row-ranges.md).
 */
public record PlacementStatus(String table, long version, List<StoredColumn> columns) {
  public static final List<ResultColumn> COLUMNS =
      List.of(
          ResultColumn.of("column_name", STRING),
          ResultColumn.of("device", STRING),
          ResultColumn.of("codec", STRING),
          ResultColumn.of("segments", INT),
          ResultColumn.of("compressed_bytes", LONG),
          ResultColumn.of("uncompressed_bytes", LONG),
          ResultColumn.of("row_groups", STRING));

  public PlacementStatus {
    columns = List.copyOf(columns);
  }

  public List<List<Object>> rows() {
    return columns.stream()
        .map(
            c ->
                List.<Object>of(
                    c.column(),
                    c.device(),
                    c.codec().configName(),
                    c.segments(),
                    c.compressedBytes(),
                    c.uncompressedBytes(),
                    c.rowGroups()))
        .toList();
  }
}
