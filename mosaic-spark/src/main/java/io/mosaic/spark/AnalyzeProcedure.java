package io.mosaic.spark;

import io.mosaic.operations.AnalyzeResult;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code CALL mosaic.system.analyze(table => 'ns.t')}: adds the column statistics writers collect
 * (distinct-value sketches, data sizes) to the row groups that lack them, so {@code
 * estimateStatistics} reports distinct counts for tables written before writers collected them or
 * imported; the library's operation, as Trino's {@code ANALYZE} and {@code mosaic analyze}.
 */
final class AnalyzeProcedure extends MosaicProcedure {
  static final String NAME = "analyze";

  AnalyzeProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Add missing column statistics (distinct-value sketches, data sizes) to a Mosaic table",
        AnalyzeResult.COLUMNS);
  }

  @Override
  List<InternalRow> run(InternalRow args) {
    return rows(executor().analyze(string(args, 0)).rows());
  }
}
