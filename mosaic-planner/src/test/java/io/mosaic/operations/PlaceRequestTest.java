package io.mosaic.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import io.mosaic.placement.PlacementOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The maintenance requests' one string syntax and their defaults (docs/operations.md). */
class PlaceRequestTest {
  private static void invalid(ThrowingCallable call, String... fragments) {
    assertThatThrownBy(call)
        .isInstanceOf(MosaicException.class)
        .satisfies(
            e ->
                assertThat(((MosaicException) e).kind())
                    .isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageContainingAll(fragments);
  }

  @Test
  void aPlanIsShownNotAppliedUnlessAsked() {
    PlaceRequest r = PlaceRequest.builder("tpch.orders").build();
    assertThat(r.apply()).isFalse();
    assertThat(r.strategy()).isEqualTo("lopt");
    assertThat(r.timeLimit()).isEqualTo(Duration.ofSeconds(60));
    assertThat(r.pins()).isEmpty();
    assertThat(r.minBytes()).isEmpty();
    assertThat(r.maxBytes()).isEmpty();
    assertThat(r.maxDevices()).isNull();
    assertThat(r.noRegression()).isNull();
    assertThat(r.sampleFraction()).isEqualTo(1.0);
    // SQL NULLs and absent options keep the defaults.
    PlaceRequest nulls =
        PlaceRequest.builder("t")
            .strategy(null)
            .timeLimit(null)
            .apply(null)
            .pins(null)
            .minBytes(null)
            .maxBytes(null)
            .maxDevices(null)
            .noRegression(null, null)
            .sample(null, null)
            .build();
    assertThat(nulls).isEqualTo(PlaceRequest.builder("t").build());
    assertThat(PlaceRequest.builder("t").apply(true).build().apply()).isTrue();
    // A move is the user's own placement: it applies unless a dry run is asked for.
    assertThat(MoveRequest.parse("t", "a=hdd", null).apply()).isTrue();
    assertThat(MoveRequest.parse("t", "a=hdd", false).apply()).isFalse();
  }

  @Test
  void everyConstraintParsesFromOneStringForm() {
    PlaceRequest r =
        PlaceRequest.builder("t")
            .pins("l_comment=hdd, orders.o_comment = nvme")
            .minBytes("nvme=1GB")
            .maxBytes("nvme=2 GB,hdd=500 MB")
            .maxDevices(2)
            .noRegression(0.1, "current")
            .sample(0.6, 7L)
            .build();
    assertThat(r.pins())
        .containsExactly(Map.entry("l_comment", "hdd"), Map.entry("orders.o_comment", "nvme"));
    assertThat(r.minBytes()).containsExactly(Map.entry("nvme", 1_000_000_000L));
    assertThat(r.maxBytes())
        .containsExactly(Map.entry("nvme", 2_000_000_000L), Map.entry("hdd", 500_000_000L));
    assertThat(r.noRegression())
        .isEqualTo(new PlaceRequest.NoRegressionBound(PlaceRequest.Reference.CURRENT, 0.1));

    ColumnRef comment = new ColumnRef("lineitem", "l_comment");
    ColumnRef orders = new ColumnRef("orders", "o_comment");
    Placement current = new Placement(Map.of(comment, "nvme", orders, "hdd"));
    PlacementOptions o = r.options(List.of(comment, orders), current);
    assertThat(o.pinned()).containsEntry(comment, "hdd").containsEntry(orders, "nvme");
    assertThat(o.maxDevices()).isEqualTo(2);
    // Section 5.4's reference "current" is the placement the tables have now.
    assertThat(o.noRegression().reference()).isEqualTo(current);
    assertThat(o.noRegression().slack()).isEqualTo(0.1);
    assertThat(o.sampleFraction()).isEqualTo(0.6);
    assertThat(o.seed()).isEqualTo(7);
  }

  @Test
  void durationsInEachFrontEndsSpelling() {
    assertThat(MaintenanceSyntax.duration("10s", "t")).isEqualTo(Duration.ofSeconds(10));
    assertThat(MaintenanceSyntax.duration("500ms", "t")).isEqualTo(Duration.ofMillis(500));
    assertThat(MaintenanceSyntax.duration("2m", "t")).isEqualTo(Duration.ofMinutes(2));
    assertThat(MaintenanceSyntax.duration("PT60S", "t")).isEqualTo(Duration.ofSeconds(60));
    assertThat(MaintenanceSyntax.duration("90", "t")).isEqualTo(Duration.ofSeconds(90));
    invalid(() -> MaintenanceSyntax.duration("soon", "time_limit"), "time_limit 'soon'", "'10s'");
    invalid(() -> MaintenanceSyntax.duration("0s", "time_limit"), "not a positive duration");
    invalid(() -> MaintenanceSyntax.duration("PT-1S", "time_limit"), "not a positive duration");
  }

  @Test
  void errorsNameTheBadEntryAndTheExpectedForm() {
    invalid(
        () -> PlaceRequest.builder("t").pins("a=hdd, l_comment"),
        "pin entry 'l_comment' must be COLUMN=DEVICE",
        "'l_comment=hdd, o_comment=hdd'");
    invalid(() -> MaintenanceSyntax.pins("a=b=c"), "pin entry 'a=b=c' must be COLUMN=DEVICE");
    invalid(() -> MaintenanceSyntax.pins("a=hdd,a=ssd"), "repeats 'a'");
    invalid(
        () -> PlaceRequest.builder("t").maxBytes("ssd=lots"),
        "max bytes entry 'ssd=lots' has no usable size",
        "DEVICE=SIZE");
    invalid(
        () -> PlaceRequest.builder("t").minBytes("1GB"),
        "min bytes entry '1GB' must be DEVICE=SIZE");
    invalid(
        () -> PlaceRequest.builder("t").maxDevices(0).build(), "max devices must be at least 1");
    invalid(
        () -> PlaceRequest.builder("t").sample(1.5, null).build(),
        "sample fraction must be in (0, 1]");
    invalid(() -> PlaceRequest.builder("t").noRegression(-0.1, null), "no-regression bound");
    invalid(
        () -> PlaceRequest.builder("t").noRegression(0.1, "yesterday"),
        "no-regression reference 'yesterday' is unknown; use 'current'");
    invalid(() -> MoveRequest.parse("t", " , ", null), "names no column");
    invalid(() -> MoveRequest.parse("t", "o_comment", null), "placement entry 'o_comment'");

    List<ColumnRef> columns =
        List.of(new ColumnRef("a", "id"), new ColumnRef("b", "id"), new ColumnRef("a", "x"));
    invalid(
        () -> MaintenanceSyntax.resolvePins(Map.of("id", "hdd"), columns),
        "pin 'id=hdd' is ambiguous",
        "TABLE.COLUMN");
    invalid(
        () -> MaintenanceSyntax.resolvePins(Map.of("nope", "hdd"), columns),
        "pin 'nope=hdd' names no column of the tables being placed",
        "a, b");
    assertThat(MaintenanceSyntax.resolvePins(Map.of("b.id", "hdd", "x", "ssd"), columns))
        .containsEntry(new ColumnRef("b", "id"), "hdd")
        .containsEntry(new ColumnRef("a", "x"), "ssd");
  }

  @Test
  void resultColumnsAreOneSchema() {
    assertThat(ResultColumn.names(PlaceResult.COLUMNS))
        .startsWith("table_name", "column_name", "strategy", "current_device", "planned_device")
        .contains("predicted_seconds_before", "predicted_seconds_after", "trace_epoch")
        .doesNotHaveDuplicates();
    PlaceResult r =
        new PlaceResult(
            "lopt",
            "LOPT",
            List.of(new PlaceResult.ColumnRow("t", "c", "hdd", "ssd", true, 10, true, 4)),
            2.0,
            1.0,
            3,
            2,
            1,
            Double.NaN,
            10,
            Double.NaN,
            5.0,
            4.0);
    assertThat(r.rows()).hasSize(1);
    assertThat(r.rows().get(0)).hasSize(PlaceResult.COLUMNS.size());
    assertThat(r.rows().get(0))
        .containsExactly(
            "t", "c", "lopt", "hdd", "ssd", true, true, 10L, true, 2.0, 1.0, 3, 2, 1, null, 5.0,
            4.0, 4);
  }
}
