package dev.tidemark.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlTest {
    @Test
    void replacesTheFiveCharactersThatEndContentOrAQuotedAttribute() {
        assertThat(Html.escape("<a href='x' title=\"y\">&</a>"))
                .isEqualTo("&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&lt;/a&gt;");
    }

    @Test
    void escapesAnAmpersandOnceSoEntitiesInTheInputStayVisibleText() {
        assertThat(Html.escape("&amp; &lt;")).isEqualTo("&amp;amp; &amp;lt;");
    }

    @Test
    void leavesOtherTextAsItIsAndTurnsNullIntoNothing() {
        assertThat(Html.escape("public.Invoice (-∞, 2013-12-22T00:00] — ok")).isEqualTo("public.Invoice (-∞, 2013-12-22T00:00] — ok");
        assertThat(Html.escape("")).isEmpty();
        assertThat(Html.escape(null)).isEmpty();
    }
}
