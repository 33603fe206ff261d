"""Site search in each language, with ten queries a native reader would type.

Material's search runs in the browser on each language's own index. Its tokenizer settings
decide what a query can find: Russian words are stemmed (``lang: ru``: "хуки", "хуке"
and "хук" are one term), Chinese text is split into words by jieba when the site is built
and a Chinese query is split against the same words in the browser, Korean is split at
spaces and punctuation. Each query must bring the page that answers it among the first
five pages listed, in a real browser (the ranking is Material's, not a copy of it). Each
query is entered whole (``docs_support.search_for``); ``test_site_browser.py`` types
queries key by key as a reader does.
"""

from __future__ import annotations

import pytest
from docs_support import search_for

# Global hooks are taught on three pages: the call order, the registration hooks, exercise 14.
GLOBAL = ("explanation/module-call", "explanation/registration-hooks", "ex14_global_hooks")
# locale -> (query, a part of the path of the page that answers it, or of any of several)
QUERIES = {
    "ru": [("хук", "/ru/"), ("обрезка градиентов", "clip-and-scale-gradients"),
           ("сохранённые тензоры", "see-what-autograd-saves"),
           ("полный backward-хук", "full-backward-hooks"),
           ("глобальные хуки", GLOBAL), ("прунинг", "prune"),
           ("карты внимания", "attention-maps"), ("хук не срабатывает", "hook-does-not-fire"),
           ("заморозка слоёв", "freeze-layers"), ("типичные ошибки", "common-mistakes")],
    "zh": [("钩子", "/zh/"), ("梯度裁剪", "clip-and-scale-gradients"),
           ("保存张量", "see-what-autograd-saves"), ("完整反向钩子", "full-backward-hooks"),
           ("全局钩子", GLOBAL), ("剪枝", "prune"), ("注意力图", "attention-maps"),
           ("钩子没有触发", "hook-does-not-fire"), ("冻结", "freeze-layers"),
           ("常见错误", "common-mistakes")],
    "ko": [("훅", "/ko/"), ("기울기 클리핑", "clip-and-scale-gradients"),
           ("저장된 텐서", "see-what-autograd-saves"),
           ("full backward hook", "full-backward-hooks"),
           ("전역 훅", GLOBAL), ("가지치기", "prune"), ("어텐션 맵", "attention-maps"),
           ("훅이 호출되지 않는", "hook-does-not-fire"), ("레이어 고정", "freeze-layers"),
           ("흔한 실수", "common-mistakes")],
}
_RESULT_PAGES = """links => {
  const pages = [];
  for (const link of links) {
    const page = new URL(link.href).pathname;
    if (!pages.includes(page)) pages.push(page);
  }
  return pages;
}"""


@pytest.mark.parametrize("locale", list(QUERIES))
def test_native_queries_find_their_page(browser, base_url: str,
                                        locale: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base_url}{locale}/", wait_until="load")
    missed = {}
    for query, answer in QUERIES[locale]:
        search_for(page, query)
        pages = page.locator(".md-search-result__item > .md-search-result__link").evaluate_all(
            _RESULT_PAGES)
        answers = (answer,) if isinstance(answer, str) else answer
        if not any(one in found for found in pages[:5] for one in answers):
            missed[query] = pages[:5]
    page.close()
    assert not missed, f"queries whose page is not among the first five: {missed}"
