package io.mosaic.placement;

/** No placement satisfies the problem's constraints; the message says why, when it can tell. */
public final class InfeasiblePlacementException extends RuntimeException {
  public InfeasiblePlacementException(String message) {
    super(message);
  }
}
