package io.mosaic.trino;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;

import io.trino.spi.procedure.Procedure;
import io.trino.spi.type.Type;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

/**
 * A Mosaic procedure on one table, {@code CALL mosaic.system.<name>(schema_name, table_name, ...)}:
 * its arguments and the handle that calls its Java method with the same parameters, boxed so that
 * an omitted argument arrives as null.
 */
final class TableProcedure {
  private TableProcedure() {}

  /**
   * The procedure {@code name} that calls {@code target.method(String schema, String table, ...)}
   * with {@code more} after the table.
   */
  static Procedure of(Object target, String name, String method, Procedure.Argument... more) {
    List<Procedure.Argument> arguments = new ArrayList<>();
    arguments.add(new Procedure.Argument("SCHEMA_NAME", VARCHAR));
    arguments.add(new Procedure.Argument("TABLE_NAME", VARCHAR));
    arguments.addAll(List.of(more));
    MethodType type =
        MethodType.methodType(
            void.class, arguments.stream().<Class<?>>map(a -> javaType(a.getType())).toList());
    try {
      return new Procedure(
          "system",
          name,
          arguments,
          MethodHandles.lookup().findVirtual(target.getClass(), method, type).bindTo(target));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * An optional argument. It defaults to NULL: the library holds every default, one for all
   * engines.
   */
  static Procedure.Argument optional(String name, Type type) {
    return new Procedure.Argument(name, type, false, null);
  }

  private static Class<?> javaType(Type type) {
    if (type.equals(VARCHAR)) {
      return String.class;
    } else if (type.equals(BOOLEAN)) {
      return Boolean.class;
    } else if (type.equals(DOUBLE)) {
      return Double.class;
    } else if (type.equals(BIGINT)) {
      return Long.class;
    }
    throw new AssertionError("no procedure argument of type " + type);
  }
}
