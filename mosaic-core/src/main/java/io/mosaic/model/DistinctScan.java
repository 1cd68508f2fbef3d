package io.mosaic.model;

import io.mosaic.MosaicException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One distinct table scan {@code T} (a subset of the columns) seen {@code weight} times in the
 * trace. Eq. 4 sums {@code weight * t(T)}; merging equal scans keeps the model's size independent
 * of the number of queries (Section 4.5).
 */
public record DistinctScan(Set<ColumnRef> columns, long weight) {
  public DistinctScan {
    Objects.requireNonNull(columns, "columns");
    if (columns.isEmpty()) {
      throw MosaicException.invalid("a table scan reads at least one column");
    }
    if (weight < 1) {
      throw MosaicException.invalid(
          "a scan's weight counts how often it ran; must be at least 1, not " + weight);
    }
    columns = Set.copyOf(columns);
  }

  public static DistinctScan of(long weight, ColumnRef... columns) {
    return new DistinctScan(Set.of(columns), weight);
  }

  /** The columns in table.column order (stable iteration for models and messages). */
  public TreeSet<ColumnRef> sortedColumns() {
    return new TreeSet<>(columns);
  }

  @Override
  public String toString() {
    return sortedColumns().stream()
            .map(ColumnRef::toString)
            .collect(Collectors.joining(", ", "{", "}"))
        + (weight == 1 ? "" : " x" + weight);
  }
}
