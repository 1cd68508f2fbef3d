package io.mosaic.spark;

import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.Migrator;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
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
 * {@code CALL mosaic.system.move_columns(table => 'ns.t', placement => 'c1=dev1, c2=dev2')}: a
 * hand-made migration (as {@code mosaic migrate --set}), online; one row per moved column.
 */
final class MoveColumnsProcedure extends MosaicProcedure {
  static final String NAME = "move_columns";

  private static final StructType OUTPUT =
      new StructType()
          .add("column_name", DataTypes.StringType, false)
          .add("from_device", DataTypes.StringType, false)
          .add("to_device", DataTypes.StringType, false)
          .add("segments", DataTypes.IntegerType, false)
          .add("bytes_read", DataTypes.LongType, false)
          .add("stored_bytes", DataTypes.LongType, false); // the column's file bytes after the move

  MoveColumnsProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Move columns of a Mosaic table to the given devices, online";
  }

  @Override
  public ProcedureParameter[] parameters() {
    return new ProcedureParameter[] {
      ProcedureParameter.in("table", DataTypes.StringType).build(),
      ProcedureParameter.in("placement", DataTypes.StringType).build()
    };
  }

  @Override
  StructType outputType() {
    return OUTPUT;
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    MosaicTable table = catalog.openTable(string(args, 0));
    Migration m = Migration.apply(table, Migrator.parsePlacement(string(args, 1)));
    Map<String, List<Migrator.Move>> byColumn = new LinkedHashMap<>();
    m.plan()
        .moves()
        .forEach(mv -> byColumn.computeIfAbsent(mv.column(), c -> new ArrayList<>()).add(mv));
    List<InternalRow> rows = new ArrayList<>();
    byColumn.forEach(
        (column, moves) -> {
          long stored =
              m.after().segmentsOf(column).stream().mapToLong(SegmentEntry::fileBytes).sum();
          rows.add(
              new GenericInternalRow(
                  new Object[] {
                    utf8(column),
                    utf8(
                        String.join(
                            ",", moves.stream().map(mv -> mv.from().device()).distinct().toList())),
                    utf8(moves.get(0).toDevice()),
                    moves.size(),
                    moves.stream().mapToLong(mv -> mv.from().fileBytes()).sum(),
                    stored
                  }));
        });
    return rows;
  }
}
