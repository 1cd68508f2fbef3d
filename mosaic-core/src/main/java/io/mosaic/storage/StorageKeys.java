package io.mosaic.storage;

import io.mosaic.MosaicException;

/** Keys of a {@link Storage}: relative, {@code /}-separated, with no empty, . or .. parts. */
public final class StorageKeys {
  private StorageKeys() {}

  /** Returns {@code key} if it is a legal key ({@code ""} is the root), or refuses it. */
  public static String check(String key) {
    if (key.isEmpty()) {
      return key;
    }
    if (key.startsWith("/") || key.endsWith("/")) {
      throw MosaicException.invalid(
          "storage key '" + key + "' starts or ends with '/'; keys are relative to the root");
    }
    for (String part : key.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw MosaicException.invalid(
            "storage key '"
                + key
                + "' has an empty, '.' or '..' part; keys may not leave the root");
      }
    }
    return key;
  }

  /** {@code parent/child}, or {@code child} under the root. */
  public static String join(String parent, String child) {
    return parent.isEmpty() ? child : parent + "/" + child;
  }

  /** The folder of {@code key} ({@code ""} for a key at the root). */
  public static String parent(String key) {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? "" : key.substring(0, slash);
  }

  /** The last part of {@code key}. */
  public static String name(String key) {
    return key.substring(key.lastIndexOf('/') + 1);
  }
}
