package io.mosaic.spark;

import io.mosaic.table.ColumnSpec;
import io.mosaic.table.Manifest;
import io.mosaic.table.SegmentEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL mosaic.system.placement(table => 'ns.t')}: where each column of the table's latest
 * version lives now, one row per column and device (and codec), with its stored bytes.
 */
final class PlacementProcedure extends MosaicProcedure {
  static final String NAME = "placement";

  private static final StructType OUTPUT =
      new StructType()
          .add("column_name", DataTypes.StringType, false)
          .add("device", DataTypes.StringType, false)
          .add("codec", DataTypes.StringType, false)
          .add("segments", DataTypes.IntegerType, false)
          .add("compressed_bytes", DataTypes.LongType, false)
          .add("uncompressed_bytes", DataTypes.LongType, false);

  PlacementProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Where each column of a Mosaic table lives: device, codec, segments and bytes";
  }

  @Override
  public ProcedureParameter[] parameters() {
    return new ProcedureParameter[] {ProcedureParameter.in("table", DataTypes.StringType).build()};
  }

  @Override
  StructType outputType() {
    return OUTPUT;
  }

  @Override
  List<InternalRow> run(InternalRow args) {
    Manifest m = catalog.openTable(string(args, 0)).latest();
    List<InternalRow> rows = new ArrayList<>();
    for (ColumnSpec c : m.schema().columns()) {
      // A column may span devices (finer placement, or a migration stopped half way).
      Map<String, long[]> byDevice = new LinkedHashMap<>();
      for (SegmentEntry s : m.segmentsOf(c.name())) {
        long[] sums =
            byDevice.computeIfAbsent(s.device() + "\0" + s.codec().configName(), k -> new long[3]);
        sums[0]++;
        sums[1] += s.compressedBytes();
        sums[2] += s.uncompressedBytes();
      }
      byDevice.forEach(
          (key, sums) -> {
            String[] deviceAndCodec = key.split("\0");
            rows.add(
                new GenericInternalRow(
                    new Object[] {
                      utf8(c.name()),
                      utf8(deviceAndCodec[0]),
                      utf8(deviceAndCodec[1]),
                      (int) sums[0],
                      sums[1],
                      sums[2]
                    }));
          });
    }
    return rows;
  }
}
