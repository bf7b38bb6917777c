package org.zstack.aio.server.iomode;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionDigestTest {

    @Test
    void fieldBoundariesAndNullsCount() {
        assertThat(DecisionDigest.of("ab", "c")).isNotEqualTo(DecisionDigest.of("a", "bc"));
        assertThat(DecisionDigest.of((String) null)).isNotEqualTo(DecisionDigest.of(""));
        assertThat(DecisionDigest.of("a", null)).isNotEqualTo(DecisionDigest.of("a")).isNotEqualTo(DecisionDigest.of(null, "a"));
        assertThat(DecisionDigest.of("native", "[{\"check\":\"cache\"}]")).hasSize(44)
                .isEqualTo(DecisionDigest.of("native", "[{\"check\":\"cache\"}]"));
    }

    @Test
    void listsBooleansAndNumbersAreTaggedApartFromStrings() {
        assertThat(new DecisionDigest().list(0).digest()).isNotEqualTo(new DecisionDigest().absent().digest())
                .isNotEqualTo(new DecisionDigest().add("").digest());
        // a list's end is where its size says, not where the next value starts
        assertThat(new DecisionDigest().list(1).add("a").add("b").digest())
                .isNotEqualTo(new DecisionDigest().list(2).add("a").add("b").digest());
        assertThat(new DecisionDigest().add(true).digest()).isNotEqualTo(new DecisionDigest().add("true").digest())
                .isNotEqualTo(new DecisionDigest().add(false).digest());
        assertThat(new DecisionDigest().add(0.1).digest()).isNotEqualTo(new DecisionDigest().add(0.2).digest())
                .isEqualTo(new DecisionDigest().add(0.1).digest());
    }

    /** A value fed to the digest: a string (maybe null), a boolean, a number or a list of values. */
    sealed interface Value permits Str, Bool, Num, Seq {
    }

    record Str(String s) implements Value {
    }

    record Bool(boolean b) implements Value {
    }

    record Num(double d) implements Value {
    }

    record Seq(List<Value> items) implements Value {
    }

    /** Equal digests exactly when the fed values are equal: the encoding is injective. */
    @Property(tries = 2000)
    void digestsAreEqualExactlyWhenTheValuesAre(@ForAll("values") List<Value> a, @ForAll("values") List<Value> b) {
        assertThat(digest(a).equals(digest(b))).as("%s vs %s", a, b).isEqualTo(encode(a).equals(encode(b)));
        assertThat(digest(a)).isEqualTo(digest(new ArrayList<>(a)));
    }

    @Provide
    Arbitrary<List<Value>> values() {
        // a small alphabet so that equal and nearly equal sequences come up often
        Arbitrary<Value> leaf = Arbitraries.oneOf(Arbitraries.strings().withChars("ab\u00e9").ofMaxLength(3).injectNull(0.2).map(Str::new),
                Arbitraries.of(true, false).map(Bool::new), Arbitraries.of(0.0, -0.0, 1.0, 0.1).map(Num::new));
        Arbitrary<Value> seq = leaf.list().ofMaxSize(3).map(Seq::new);
        return Arbitraries.oneOf(leaf, leaf, seq).list().ofMaxSize(4);
    }

    /** What the values are, by structure: equal exactly when the sequences are (-0.0 and 0.0 apart, as their bits are). */
    private static String encode(List<Value> values) {
        StringBuilder b = new StringBuilder();
        for (Value v : values) {
            if (v instanceof Str s) b.append(s.s() == null ? "N" : "S" + s.s().length() + ":" + s.s());
            else if (v instanceof Bool x) b.append(x.b() ? "T" : "F");
            else if (v instanceof Num n) b.append("D").append(Double.doubleToLongBits(n.d())).append(';');
            else if (v instanceof Seq q) b.append("L").append(q.items().size()).append('(').append(encode(q.items())).append(')');
        }
        return b.toString();
    }

    private static String digest(List<Value> values) {
        DecisionDigest d = new DecisionDigest();
        feed(d, values);
        return d.digest();
    }

    private static void feed(DecisionDigest d, List<Value> values) {
        for (Value v : values) {
            if (v instanceof Str s) d.add(s.s());
            else if (v instanceof Bool x) d.add(x.b());
            else if (v instanceof Num n) d.add(n.d());
            else if (v instanceof Seq q) {
                d.list(q.items().size());
                feed(d, q.items());
            }
        }
    }
}
