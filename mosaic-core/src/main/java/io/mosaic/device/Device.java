package io.mosaic.device;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A device of the installed pool at run time: its spec and its read path (throttled if emulated).
 */
public final class Device {
  private final DeviceSpec spec;
  private final DeviceThrottle throttle;

  Device(DeviceSpec spec) {
    this.spec = spec;
    this.throttle = spec.emulation().map(DeviceThrottle::new).orElse(null);
  }

  public DeviceSpec spec() {
    return spec;
  }

  public String id() {
    return spec.id();
  }

  public Path root() {
    return spec.path();
  }

  public boolean emulated() {
    return throttle != null;
  }

  /** Resolves a path relative to the device root, refusing paths that would leave it. */
  public Path resolve(String relative) {
    Path resolved = spec.path().resolve(relative).normalize();
    if (!resolved.startsWith(spec.path())) {
      throw new IllegalArgumentException(
          "path '" + relative + "' escapes device '" + spec.id() + "' (" + spec.path() + ")");
    }
    return resolved;
  }

  /** Opens a file on this device for reading through the device's I/O path. */
  public DeviceReadChannel openForRead(Path file) throws IOException {
    if (!Files.isDirectory(spec.path())) {
      throw new NoSuchFileException(
          spec.path().toString(),
          null,
          "directory of device '" + spec.id() + "' is gone; remount it or fix devices.toml");
    }
    return new DeviceReadChannel(file, throttle);
  }

  /** Bytes the file system under this device still has free (the configured capacity aside). */
  public long usableBytes() throws IOException {
    FileStore store = Files.getFileStore(spec.path());
    return store.getUsableSpace();
  }

  @Override
  public String toString() {
    return spec.id() + " (" + spec.path() + ")";
  }
}
