package io.mosaic.model;

import io.mosaic.MosaicException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which device holds each column: the indicator {@code I[d][c]} of Eq. 3, stored as the one device
 * per column that Eq. 6a allows.
 */
public record Placement(Map<ColumnRef, String> deviceOf) {
  public Placement {
    // Sorted, so placements print and compare the same way whichever strategy built them.
    deviceOf = Collections.unmodifiableSortedMap(new TreeMap<>(deviceOf));
  }

  /** {@code I[d][c] = 1}: whether {@code column} is on {@code device}. */
  public boolean on(String device, ColumnRef column) {
    return device.equals(deviceOf.get(column));
  }

  public String device(ColumnRef column) {
    String device = deviceOf.get(Objects.requireNonNull(column));
    if (device == null) {
      throw MosaicException.invalid("placement does not place column " + column);
    }
    return device;
  }

  public Set<ColumnRef> columnsOn(String device) {
    Set<ColumnRef> columns = new TreeSet<>();
    deviceOf.forEach(
        (column, d) -> {
          if (d.equals(device)) {
            columns.add(column);
          }
        });
    return columns;
  }

  /** The devices this placement uses (holds at least one column). */
  public Set<String> devicesUsed() {
    return new TreeSet<>(deviceOf.values());
  }
}
