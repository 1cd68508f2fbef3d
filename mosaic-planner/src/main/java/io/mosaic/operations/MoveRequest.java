package io.mosaic.operations;

import io.mosaic.MosaicException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@code move}: put named columns on named devices, online (core's {@code Migrator}). Unlike {@code
 * place}, whose plan is the planner's suggestion, the placement here is the user's own decision, so
 * it applies unless a dry run is asked for (docs/operations.md); applying starts a new trace epoch.
 *
 * @param placement {@code column -> device}
 */
public record MoveRequest(String table, Map<String, String> placement, boolean apply) {
  public MoveRequest {
    Objects.requireNonNull(table, "table");
    placement = Collections.unmodifiableMap(new LinkedHashMap<>(placement)); // in the user's order
    if (placement.isEmpty()) {
      throw MosaicException.invalid(
          "move names no column: give COLUMN=DEVICE pairs, e.g. 'l_comment=hdd'");
    }
  }

  /**
   * From the shared string form {@code 'l_comment=hdd, l_shipdate=nvme'}; a null {@code apply}
   * applies.
   */
  public static MoveRequest parse(String table, String placement, Boolean apply) {
    Map<String, String> pairs = MaintenanceSyntax.placement(placement);
    if (pairs.isEmpty()) {
      throw MosaicException.invalid(
          "placement '"
              + (placement == null ? "" : placement)
              + "' names no column: give COLUMN=DEVICE pairs, e.g. 'l_comment=hdd'");
    }
    return new MoveRequest(table, pairs, apply == null || apply);
  }
}
