package io.mosaic.cli;

import io.mosaic.model.ColumnRef;
import io.mosaic.operations.MaintenanceSyntax;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.placement.PlacementOptions;
import java.util.Collection;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The planner's user constraints (paper Section 4.5, and the sampling of Section 5.5) as options of
 * {@code place} and {@code recommend}, in the string form the SQL procedures take too
 * (docs/operations.md); the library parses them.
 */
final class ConstraintOptions {
  @Option(
      names = "--pin",
      paramLabel = "COLUMN=DEVICE[,...]",
      description =
          "Keep columns on a device, e.g. l_comment=hdd,o_comment=hdd (TABLE.COLUMN when several"
              + " tables have the column; repeatable).")
  List<String> pins = List.of();

  @Option(
      names = "--min-bytes",
      paramLabel = "DEVICE=SIZE[,...]",
      description = "The least a device must hold, e.g. ssd=1GB (repeatable).")
  List<String> minBytes = List.of();

  @Option(
      names = "--max-bytes",
      paramLabel = "DEVICE=SIZE[,...]",
      description = "The most a device may hold, e.g. ssd=1GB (repeatable).")
  List<String> maxBytes = List.of();

  @Option(names = "--max-devices", paramLabel = "N", description = "Use at most N devices.")
  Integer maxDevices;

  @Option(
      names = "--sample",
      paramLabel = "FRACTION",
      description = "Solve on this fraction of the distinct scans, in (0, 1] (default: all).")
  Double sample;

  @Option(names = "--seed", paramLabel = "N", description = "The sample's seed (default: 0).")
  Long seed;

  private static String joined(List<String> values) {
    return String.join(",", values);
  }

  /** Adds these constraints to a {@code place} request. */
  PlaceRequest.Builder addTo(PlaceRequest.Builder request) {
    return request
        .pins(joined(pins))
        .minBytes(joined(minBytes))
        .maxBytes(joined(maxBytes))
        .maxDevices(maxDevices)
        .sample(sample, seed);
  }

  /** The same constraints for the purchase planner ({@code recommend}), over its columns. */
  PlacementOptions options(Collection<ColumnRef> columns) {
    PlaceRequest r = addTo(PlaceRequest.builder("recommend")).build();
    return new PlacementOptions(
        MaintenanceSyntax.resolvePins(r.pins(), columns),
        r.minBytes(),
        r.maxBytes(),
        r.maxDevices(),
        null,
        r.sampleFraction(),
        r.seed());
  }
}
