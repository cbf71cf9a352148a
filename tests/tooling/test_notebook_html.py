"""What the site changes in mkdocs-jupyter's HTML (verified_site.notebook_html)."""

from __future__ import annotations

from verified_site.notebook_html import clean, used_css, without_unused_properties

_PAGE = """
<script src="https://cdn.example/mathjax.js"></script>
<script type="text/x-mathjax-config">init_mathjax()</script>
<script>document.title = "kept"</script>
<style>.k { color: var(--keyword); }</style>
<style>
.jupyter-wrapper { --keyword: var(--green); --green: #080; --icon: url(data:x); }
.jp-Unused { color: red; }
@media (max-width: 10px) { .jp-Cell { margin: 0 } .jp-Unused { margin: 1px } }
</style>
<div class="jupyter-wrapper"><div class="jp-Cell jp-CodeCell">
<h1 id="">标题<a class="anchor-link" href="#">¶</a></h1>
<h2 id="">小节 <code>state_dict</code><a class="anchor-link" href="#">¶</a></h2>
<h2 id="">小节 <code>state_dict</code></h2>
<pre><span class="k">import</span> torch</pre>
</div></div>
"""


def test_no_script_from_another_host_and_no_mathjax_configuration():
    html, _ = clean(_PAGE)
    assert "cdn.example" not in html and "x-mathjax-config" not in html
    assert 'document.title = "kept"' in html


def test_headings_get_unicode_ids_permalinks_and_a_table_of_contents():
    html, toc = clean(_PAGE)
    assert (
        'id="标题"' in html and 'id="小节-state_dict"' in html and 'id="小节-state_dict_1"' in html
    )
    assert html.count('class="headerlink"') == 3 and "anchor-link" not in html
    assert [t["name"] for t in toc] == ["标题"]
    assert [c["name"] for c in toc[0]["children"]] == ["小节 state_dict", "小节 state_dict"]


def test_sections_and_code_stay_out_of_the_search_index():
    html, _ = clean(_PAGE)
    assert '<h1 id="标题">' in html  # the title and introduction are indexed
    assert html.count("data-search-exclude") == 3  # two h2 and the code


def test_stylesheets_keep_what_the_page_uses():
    html, _ = clean(_PAGE)
    css = html.replace(" ", "")
    assert ".k{color:var(--keyword);}" in css
    # --keyword is used in the other <style>, and --green through --keyword.
    assert "--keyword:var(--green);" in css and "--green:#080;" in css
    assert "--icon" not in html and "jp-Unused" not in html
    assert "@media (max-width: 10px)" in html and ".jp-Cell" in html


def test_rules_whose_classes_are_only_in_a_negation_are_kept():
    assert used_css(".a:not(.b) { x: 1 }", {"a"}) == ".a:not(.b) { x: 1 }"
    assert used_css(".a .b { x: 1 }", {"a"}) == ""
    assert used_css(":root { x: 1 } @font-face { y: 2 }", set()).count("{") == 2


def test_property_used_only_by_an_inline_style_is_kept():
    (css,) = without_unused_properties([":root { --w: 3px; --z: 1px }"], extra=["width: var(--w)"])
    assert "--w" in css and "--z" not in css
