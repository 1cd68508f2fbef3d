package io.mosaic.device;

import io.mosaic.MosaicException;

/** A write would exceed a device's configured capacity, or its file system ran out of space. */
public final class DeviceFullException extends MosaicException {
  public DeviceFullException(String message) {
    super(Kind.DEVICE_FULL, message);
  }

  public DeviceFullException(String message, Throwable cause) {
    super(Kind.DEVICE_FULL, message, cause);
  }
}
