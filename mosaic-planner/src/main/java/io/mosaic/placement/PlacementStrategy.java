package io.mosaic.placement;

/** A swappable way to compute the indicator {@code I} of Eq. 3 (paper Section 4.2). */
public interface PlacementStrategy {
  /** A short name for reports: {@code HOT table}, {@code HOT column}, {@code LOPT}. */
  String name();

  /**
   * Computes a placement of every column of the problem's model.
   *
   * @throws InfeasiblePlacementException if no placement satisfies the problem's constraints
   * @throws IllegalArgumentException if the strategy cannot handle the problem's mode or options
   */
  PlacementResult place(PlacementProblem problem);
}
