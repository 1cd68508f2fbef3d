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
import java.io.UncheckedIOException;

/**
 * A page sink's {@link WriteResult} as the fragment Trino carries from worker to coordinator.
 * Core's results are Serializable; classes resolve in the plugin's class loader, not the server's.
 */
final class WriteFragments {
  private WriteFragments() {}

  static Slice encode(WriteResult result) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(result);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Slices.wrappedBuffer(bytes.toByteArray());
  }

  static WriteResult decode(Slice fragment) {
    try (ObjectInputStream in =
        new PluginObjectInputStream(new ByteArrayInputStream(fragment.getBytes()))) {
      return (WriteResult) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot read a Mosaic write fragment: " + e, e);
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
        return Class.forName(desc.getName(), false, WriteFragments.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        return super.resolveClass(desc);
      }
    }
  }
}
