package io.mosaic.spark;

import io.mosaic.operations.PlacementStatus;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code CALL mosaic.system.placement(table => 'ns.t')}: where each column of the table's latest
 * version lives now, one row per column and device (and codec), with its stored bytes: the
 * library's {@link PlacementStatus}, the same rows as Trino's {@code "t$placement"}.
 */
final class PlacementProcedure extends MosaicProcedure {
  static final String NAME = "placement";

  PlacementProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Where each column of a Mosaic table lives: device, codec, segments and bytes",
        PlacementStatus.COLUMNS);
  }

  @Override
  List<InternalRow> run(InternalRow args) {
    return rows(executor().status(string(args, 0)).rows());
  }
}
