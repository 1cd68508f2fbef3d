package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.mosaic.table.WriteResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Core's Serializable values as the bytes Trino carries between coordinator and workers: a page
 * sink's {@link WriteResult} as its fragment, a split's {@link io.mosaic.scan.ScanRequest} (as
 * Spark ships it in its input partition). Classes resolve in the plugin's class loader, not the
 * server's.
 */
final class CoreObjects {
  private CoreObjects() {}

  static Slice encode(WriteResult result) {
    return Slices.wrappedBuffer(bytes(result));
  }

  static WriteResult decode(Slice fragment) {
    return read(fragment.getBytes(), WriteResult.class, "write fragment");
  }

  static byte[] bytes(Serializable value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The {@code type} in {@code bytes}; {@code what} names it in the error. */
  static <T> T read(byte[] bytes, Class<T> type, String what) {
    try (ObjectInputStream in = new PluginObjectInputStream(new ByteArrayInputStream(bytes))) {
      return type.cast(in.readObject());
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot read a Mosaic " + what + ": " + e, e);
    }
  }

  private static final class PluginObjectInputStream extends ObjectInputStream {
    PluginObjectInputStream(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      try {
        return Class.forName(desc.getName(), false, CoreObjects.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        return super.resolveClass(desc);
      }
    }
  }
}
