package io.mosaic.spark;

import io.mosaic.format.Manifest;
import io.mosaic.format.StoredColumn;
import java.util.ArrayList;
import java.util.List;
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
    for (StoredColumn c : m.storedColumns()) {
      rows.add(
          new GenericInternalRow(
              new Object[] {
                utf8(c.column()),
                utf8(c.device()),
                utf8(c.codec().configName()),
                c.segments(),
                c.compressedBytes(),
                c.uncompressedBytes()
              }));
    }
    return rows;
  }
}
