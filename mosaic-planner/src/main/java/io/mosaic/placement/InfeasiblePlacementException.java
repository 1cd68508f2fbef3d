package io.mosaic.placement;

import io.mosaic.MosaicException;

/** No placement satisfies the problem's constraints; the message says why, when it can tell. */
public final class InfeasiblePlacementException extends MosaicException {
  public InfeasiblePlacementException(String message) {
    super(Kind.INFEASIBLE, message);
  }
}
