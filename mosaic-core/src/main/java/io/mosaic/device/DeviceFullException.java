package io.mosaic.device;

import java.io.IOException;

/** A write would exceed a device's configured capacity, or its file system ran out of space. */
public final class DeviceFullException extends IOException {
  public DeviceFullException(String message) {
    super(message);
  }

  public DeviceFullException(String message, Throwable cause) {
    super(message, cause);
  }
}
