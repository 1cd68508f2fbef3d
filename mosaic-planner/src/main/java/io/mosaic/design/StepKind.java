package io.mosaic.design;

import io.mosaic.ConfigNames;

/**
 * What a step of a transformation does (Physical Design Management in Ceph, Section II: moves are
 * one kind of physical design change; a codec and a sort order are others).
 */
public enum StepKind {
  /** A column's segments move to another device (re-encoded there when the codecs differ). */
  MOVE,
  /** A column's segments are re-encoded with another codec on the device they are on. */
  CODEC,
  /** The table's rows are rewritten sorted by a column, so min/max skipping prunes row groups. */
  SORT;

  public String configName() {
    return ConfigNames.of(this);
  }

  public static StepKind parse(String name) {
    return ConfigNames.parse(StepKind.class, name, "step kind");
  }
}
