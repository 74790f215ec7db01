package com.acme.fulfil.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The W3C traceparent and X-Ray header formats, the examples from their own documentation first. */
class TraceContextTest {
  /** The W3C recommendation's own example. */
  private static final String W3C_EXAMPLE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Test
  void theRecommendationsExampleIsReadFieldByField() {
    assertThat(TraceContext.fromTraceparent(W3C_EXAMPLE))
        .contains(new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", Optional.of("00f067aa0ba902b7"), "01"));
  }

  @Test
  void aLaterVersionIsReadForItsFirstFourFieldsAndWhatFollowsADashIsIgnored() {
    assertThat(TraceContext.fromTraceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-what-the-future-adds"))
        .contains(new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", Optional.of("00f067aa0ba902b7"), "09"));
    assertThat(TraceContext.fromTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        .contains(new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", Optional.of("00f067aa0ba902b7"), "01"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {
      "",
      "not a trace context",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff is forbidden
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // all-zero trace id
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // all-zero parent id
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", // upper case
      "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", // trace id of 31 digits
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01", // parent id of 15 digits
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1", // flags of one digit
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // version 00 has exactly four fields
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 ", // nor anything after them
      "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09x", // a later version's extra fields follow a dash
      "0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version of one digit
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902g7-01", // not hex
      "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
      "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1", // X-Ray's header is not a traceparent
  })
  void anythingElseIsNoTraceContext(String value) {
    assertThat(TraceContext.fromTraceparent(value)).isEmpty();
  }

  @Test
  void noValueIsNoTraceContext() {
    assertThat(TraceContext.fromTraceparent(null)).isEmpty();
    assertThat(TraceContext.fromAwsTraceHeader(null)).isEmpty();
  }

  @Test
  void lambdasAwsTraceHeaderIsTheSameTraceIdWithoutTheVersionAndTheDash() {
    // Lambda's documented SQS event example.
    assertThat(TraceContext.fromAwsTraceHeader("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"))
        .contains(new TraceContext("5759e988bd862e3fe1be46a994272793", Optional.of("53995c3f42cd8ad8"), "01"));
    assertThat(TraceContext.fromAwsTraceHeader("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0;Lineage=a87bd80c:1"))
        .contains(new TraceContext("5759e988bd862e3fe1be46a994272793", Optional.of("53995c3f42cd8ad8"), "00"));
    assertThat(TraceContext.fromAwsTraceHeader("Parent=53995c3f42cd8ad8;Root=1-5759e988-bd862e3fe1be46a994272793"))
        .as("order free, sampling not decided").contains(new TraceContext("5759e988bd862e3fe1be46a994272793", Optional.of("53995c3f42cd8ad8"), "00"));
  }

  @Test
  void anXRayRootWithoutAParentIsATraceWhoseRequestsAreNewSpans() {
    // X-Ray's documented header of a trace's first hop: no parent span yet.
    TraceContext root = TraceContext.fromAwsTraceHeader("Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1").orElseThrow();
    assertThat(root).isEqualTo(new TraceContext("5759e988bd862e3fe1be46a994272793", Optional.empty(), "01"));
    assertThat(TraceContext.fromAwsTraceHeader("Root=1-5759e988-bd862e3fe1be46a994272793")).as("sampling not decided")
        .contains(new TraceContext("5759e988bd862e3fe1be46a994272793", Optional.empty(), "00"));
    assertThat(root.child().traceparent()).startsWith("00-5759e988bd862e3fe1be46a994272793-").endsWith("-01");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {
      "",
      "Parent=53995c3f42cd8ad8;Sampled=1", // no root
      "Root=2-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8", // an unknown root version
      "Root=1-5759e988bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8", // the root's dash missing
      "Root=1-00000000-000000000000000000000000;Parent=53995c3f42cd8ad8", // all zero
      "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=0000000000000000",
      "Root=1-5759E988-BD862E3FE1BE46A994272793;Parent=53995c3f42cd8ad8",
      W3C_EXAMPLE,
  })
  void anAwsTraceHeaderWithoutAReadableRootOrWithAnUnreadableParentIsNoTraceContext(String value) {
    assertThat(TraceContext.fromAwsTraceHeader(value)).isEmpty();
  }

  @Test
  void aChildKeepsTheTraceAndItsFlagsWithANewSpanEachTime() {
    TraceContext parent = TraceContext.fromTraceparent(W3C_EXAMPLE).orElseThrow();
    Set<String> spans = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      TraceContext child = parent.child();
      assertThat(child.traceId()).isEqualTo(parent.traceId());
      assertThat(child.flags()).isEqualTo(parent.flags());
      assertThat(child.parentId()).isNotEqualTo(parent.parentId()).hasValueSatisfying(span -> assertThat(span).matches("[0-9a-f]{16}"));
      assertThat(TraceContext.fromTraceparent(child.traceparent())).as("a valid traceparent").isEqualTo(Optional.of(child));
      spans.add(child.parentId().orElseThrow());
    }
    assertThat(spans).as("random span ids").hasSize(1_000);
  }

  @Test
  void aChildOfALaterVersionIsSentAsVersion00() {
    TraceContext parent = TraceContext.fromTraceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x").orElseThrow();
    assertThat(parent.child().traceparent()).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-").endsWith("-01");
  }

  @Test
  void theRecordRefusesWhatTheParsersRefuse() {
    assertThatThrownBy(() -> new TraceContext("0".repeat(32), Optional.of("00f067aa0ba902b7"), "01")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", Optional.of("short"), "01"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
