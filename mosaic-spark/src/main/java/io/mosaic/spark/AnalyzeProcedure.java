package io.mosaic.spark;

import io.mosaic.operations.AnalyzeResult;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL mosaic.system.analyze(table => 'ns.t')}: adds the column statistics writers collect
 * (distinct-value sketches, data sizes) to the row groups that lack them, so {@code
 * estimateStatistics} reports distinct counts for tables written before writers collected them or
 * imported; the library's operation, as Trino's {@code ANALYZE} and {@code mosaic analyze}.
 */
final class AnalyzeProcedure extends MosaicProcedure {
  static final String NAME = "analyze";

  private static final StructType OUTPUT = schema(AnalyzeResult.COLUMNS);

  AnalyzeProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Add missing column statistics (distinct-value sketches, data sizes) to a Mosaic table";
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
    return rows(executor().analyze(string(args, 0)).rows());
  }
}
