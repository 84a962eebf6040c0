#!/usr/bin/env python3
"""Writes the golden corpus of letters (NNN-name.eml) as real mail clients produce them.

Run from anywhere: python3 tests/data/letters/make_corpus.py
Then `UPDATE_EXPECT=1 cargo test --test main letters` writes the .expected files, which must
be READ and checked by eye before committing. The .eml files are committed; this script is
kept so that the corpus can be extended in the same style.
"""

import base64
import os
import quopri
from email.header import Header
from email.utils import formataddr

HERE = os.path.dirname(os.path.abspath(__file__))

ZAOCHKA = ("Заочка", "zaochka@federation.test")
IVANOV = ("Иванов Иван", "ivanov@players.test")
PETROVA = ("Петрова Анна", "petrova@players.test")
SMITH = ("John Smith", "smith@players.test")
SIDOROV = ("Сидоров Пётр", "sidorov@players.test")

# What zaochka sent: quoted in replies, it must never be read as the player's moves.
ZAOCHKA_LETTER = """Здравствуйте, Иван!
Шифр: ЗШ-2026-1, партия 7 (Петрова — Иванов)
Ваш ход: 11. c3-d4
Мой ход: 11... f8:d6 12. e3-f4
Если 12... g7-h6, то 13. f4-e5
Даты: 28.11.2026 / 29.11.2026 / 30.11.2026
Время: 21/17
Предлагаю ничью"""

# zaochka's real forward letter (render's golden forward.ru__full), as players get it.
REAL_FORWARD = """Здравствуйте, Петров Пётр!

Турнир ЗШ-2026-1 «Кубок зимы», партия 7: Иванов Иван (белые) — Петров Пётр (чёрные).

Ваши ходы (повторены партнёром): 12. c3-d4
Принятая часть вашего варианта: 12... f6-g5 13. g3-h4
Ход партнёра: 13... g5:e3
Вариант А: 14. f2:d4 b6-a5
Партнёр предлагает ничью.
Даты: 01.12.2026 / 02.12.2026 / 05.12.2026
Время (белые/чёрные): 23/17

Чтобы ответить, нажмите «Ответить» и напишите сначала ход партнёра, затем свой (п. 10.2.3, 10.2.9):
Ваш ход: 13... g5:e3
Мой ход: …

Письмо партнёра:
Удачи!

-- 
Федерация заочных шашек"""

PLAYER = """Здравствуйте, Анна!
Шифр: ЗШ-2026-1, партия 7
Ваш ход: 12... f8:d6
Мой ход: 13. e3-f4
Если 13... g7-h6, то 14. f4-e5
Даты: 01.12.2026 / 03.12.2026 / 05.12.2026
Время: 23/17
С уважением, Иван"""


def quote(text, prefix="> "):
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))


def enc_header(value, charset="utf-8", q=False):
    try:
        value.encode("ascii")
        return value
    except UnicodeEncodeError:
        h = Header(value, charset)
        if q:
            return "=?%s?Q?%s?=" % (charset, quopri.encodestring(value.encode(charset), header=True).decode())
        return h.encode()


def enc_addr(pair, charset="utf-8"):
    name, addr = pair
    return formataddr((name, addr), charset=charset)


def body_bytes(text, charset, cte, nl="\n"):
    raw = text.replace("\n", nl).encode(charset)
    if cte == "base64":
        return base64.encodebytes(raw)
    if cte == "quoted-printable":
        return quopri.encodestring(raw)
    return raw


def part(text, subtype="plain", charset="utf-8", cte="8bit", extra="", nl="\n", declared=None):
    """declared: the charset the header names, when a client lies ("" names none)."""
    label = charset if declared is None else declared
    head = "Content-Type: text/%s%s%s\nContent-Transfer-Encoding: %s\n\n" % (
        subtype, "; charset=" + label if label else "", extra, cte)
    return head.encode() + body_bytes(text, charset, cte, nl)


def attachment(name, ctype, data, rfc2231=False):
    if rfc2231:
        from urllib.parse import quote as pq
        disp = "attachment; filename*=UTF-8''%s" % pq(name)
    else:
        disp = 'attachment; filename="%s"' % enc_header(name)
    return ("Content-Type: %s\nContent-Disposition: %s\nContent-Transfer-Encoding: base64\n\n"
            % (ctype, disp)).encode() + base64.encodebytes(data)


def multipart(subtype, parts, boundary):
    out = b"Content-Type: multipart/%s; boundary=\"%s\"\n\n" % (subtype.encode(), boundary.encode())
    out += b"This is a multi-part message in MIME format.\n"
    for p in parts:
        out += b"--" + boundary.encode() + b"\n" + p + b"\n"
    out += b"--" + boundary.encode() + b"--\n"
    return out


def write(name, body, frm=IVANOV, to=ZAOCHKA, subject="Re: ЗШ-2026-1, партия 7",
          date="Sat, 05 Dec 2026 10:00:00 +0300", hcharset="utf-8", headers=(), q=False,
          mid=None, reply=True):
    """body: bytes of the MIME part(s), starting with its Content-Type header."""
    num = name.split("-", 1)[0]
    lines = [
        "Return-Path: <%s>" % frm[1] if frm else "Return-Path: <>",
        "From: %s" % (enc_addr(frm, hcharset) if frm else "MAILER-DAEMON@mx.players.test"),
        "To: %s" % enc_addr(to, hcharset),
        "Subject: %s" % enc_header(subject, hcharset, q),
        "Date: %s" % date,
        "Message-ID: <%s>" % (mid or "%s.letter@players.test" % num),
    ]
    if reply:
        lines.append("In-Reply-To: <z-%s@federation.test>" % num)
        lines.append("References: <z-start@federation.test> <z-%s@federation.test>" % num)
    lines += list(headers)
    lines.append("MIME-Version: 1.0")
    data = ("\n".join(lines) + "\n").encode() + body
    with open(os.path.join(HERE, name + ".eml"), "wb") as f:
        f.write(data)


def plain(name, text, charset="utf-8", cte="8bit", nl="\n", **kw):
    write(name, part(text, "plain", charset, cte, nl=nl), **kw)


def html(name, markup, charset="utf-8", cte="quoted-printable", **kw):
    write(name, part(markup, "html", charset, cte), **kw)


def alternative(name, text, markup, charset="utf-8", cte="quoted-printable", **kw):
    write(name, multipart("alternative", [part(text, "plain", charset, cte),
                                          part(markup, "html", charset, cte)],
                          "=_alt_" + name[:3]), **kw)


def corpus():
    # --- charsets and transfer encodings -----------------------------------------------
    plain("001-utf8-8bit-full-letter", PLAYER + "\n-- \nИван Иванов, г. Тверь\nтел. 8-900-000-00-00")
    plain("002-koi8r-8bit", PLAYER, charset="koi8-r", hcharset="koi8-r")
    plain("003-cp1251-quoted-printable", PLAYER, charset="windows-1251", cte="quoted-printable",
          hcharset="windows-1251", q=True)
    plain("004-utf8-base64-crlf", PLAYER, cte="base64", nl="\r\n")
    plain("005-cp1251-base64-encoded-subject", PLAYER.replace("партия 7", "партия 8"),
          charset="windows-1251", cte="base64", hcharset="windows-1251",
          subject="Шифр ЗШ-2026-1 партия 8")
    plain("006-koi8r-quoted-printable-encoded-name", PLAYER, charset="koi8-r",
          cte="quoted-printable", hcharset="koi8-r", q=True, frm=SIDOROV)
    html("007-html-only-utf8",
         "<html><head><style>p {margin:0}</style></head><body>"
         "<p>Здравствуйте, Анна!</p><p>Шифр:&nbsp;ЗШ-2026-1, партия&nbsp;7</p>"
         "<p>Ваш ход: 12...&nbsp;f8:d6<br>Мой ход: 13.&nbsp;e3&ndash;f4</p>"
         "<div>Даты: 01.12.2026 / 03.12.2026 / 05.12.2026</div><div>Время: 23/17</div>"
         "<p>С уважением, Иван</p></body></html>")
    html("008-html-only-cp1251", "<div>Шифр ЗШ-2026-1 &laquo;партия 7&raquo;</div>"
         "<div>Ваш ход 12... f8:d6</div><div>Мой ход 13. e3-f4</div>"
         "<div>Даты 01.12.2026, 03.12.2026, 05.12.2026</div><div>Время 23/17</div>",
         charset="windows-1251")
    alternative("009-multipart-alternative-plain-preferred", PLAYER,
                "<div>" + PLAYER.replace("\n", "<br>").replace("13. e3-f4", "13. a1-b2") + "</div>")
    write("010-attachments-ignored", multipart("mixed", [
        part(PLAYER),
        attachment("доска.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(200)),
        attachment("партия 7.pdn", "application/octet-stream", b'[Event "ZSh"]\n1. c3-d4 *\n',
               rfc2231=True),
    ], "mixed010"))

    # --- quoting styles ----------------------------------------------------------------
    plain("011-gmail-reply-en", "Your move: 12... f8:d6\nMy move: 13. e3-f4\n"
          "Dates: 01.12.2026 / 03.12.2026 / 05.12.2026\nTime: 23/17\n\n"
          "On Mon, 30 Nov 2026 at 18:20, Заочка <zaochka@federation.test> wrote:\n\n"
          + quote(ZAOCHKA_LETTER))
    plain("012-gmail-reply-ru", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n\n"
          "пн, 30 нояб. 2026 г. в 18:20, Заочка <zaochka@federation.test>:\n\n"
          + quote(ZAOCHKA_LETTER))
    alternative("013-gmail-html-blockquote",
                "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\nДаты: 01.12 / 03.12 / 05.12\nВремя: 23/17\n\n"
                "пн, 30 нояб. 2026 г. в 18:20, Заочка <zaochka@federation.test>:\n\n" + quote(ZAOCHKA_LETTER),
                '<div dir="ltr">Ваш ход: 12... f8:d6<div>Мой ход: 13. e3-f4</div>'
                '<div>Даты: 01.12 / 03.12 / 05.12</div><div>Время: 23/17</div></div><br>'
                '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">пн, 30 нояб. 2026 г. в 18:20, '
                'Заочка &lt;<a href="mailto:zaochka@federation.test">zaochka@federation.test</a>&gt;:<br></div>'
                '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">'
                + ZAOCHKA_LETTER.replace("\n", "<br>") + "</blockquote></div>")
    plain("014-gmail-attribution-wrapped", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n\n"
          "On Mon, 30 Nov 2026 at 18:20, Заочка - почтовый ящик федерации <\n"
          "zaochka@federation.test> wrote:\n\n" + quote(ZAOCHKA_LETTER))
    plain("015-outlook-original-message-en", "Your move: 12... f8:d6\nMy move: 13. e3-f4\n"
          "Dates: 01.12.2026 / 03.12.2026 / 05.12.2026\nTime: 23/17\n\n"
          "-----Original Message-----\nFrom: Заочка <zaochka@federation.test>\n"
          "Sent: Monday, November 30, 2026 6:20 PM\nTo: smith@players.test\n"
          "Subject: ЗШ-2026-1, партия 7\n\n" + ZAOCHKA_LETTER, frm=SMITH)
    plain("016-outlook-ru-header-block", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n\n"
          "От: Заочка <zaochka@federation.test>\nОтправлено: 30 ноября 2026 г. 18:20\n"
          "Кому: Иванов Иван <ivanov@players.test>\nТема: ЗШ-2026-1, партия 7\n\n" + ZAOCHKA_LETTER,
          cte="quoted-printable")
    html("017-outlook-html-only-no-blockquote",
         "<html><body><div><p>Ваш ход: 12... f8:d6</p><p>Мой ход: 13. e3-f4</p>"
         "<p>Даты: 01.12.2026 / 03.12.2026 / 05.12.2026</p><p>Время: 23/17</p></div>"
         "<div><hr><p><b>От:</b> Заочка &lt;zaochka@federation.test&gt;<br><b>Отправлено:</b> "
         "30 ноября 2026 г. 18:20<br><b>Кому:</b> ivanov@players.test<br><b>Тема:</b> ЗШ-2026-1</p>"
         "<p>" + ZAOCHKA_LETTER.replace("\n", "</p><p>") + "</p></div></body></html>")
    plain("018-thunderbird-ru-top-post", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n\n"
          "30.11.2026 18:20, Заочка пишет:\n" + quote(ZAOCHKA_LETTER))
    plain("019-thunderbird-en-bottom-post",
          "On 11/30/26 6:20 PM, Заочка wrote:\n" + quote(ZAOCHKA_LETTER) + "\n\n"
          "Your move: 12... f8:d6\nMy move: 13. e3-f4\nDates: 01.12.2026 / 03.12.2026 / 05.12.2026\n"
          "Time: 23/17\n\n-- \nJohn", frm=SMITH)
    write("020-thunderbird-format-flowed", part(
        "Ваш ход: 12... f8:d6 \nМой ход: 13. e3-f4 g7-h6 14. f4-e5 \nДаты: 01.12.2026 / \n"
        "03.12.2026 / 05.12.2026\nВремя: 23/17\n", extra="; format=flowed"))
    plain("021-apple-mail-iphone",
          "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\nДаты: 01.12 / 03.12 / 05.12\nВремя: 23/17\n\n"
          "Отправлено с iPhone\n\n> 30 нояб. 2026 г., в 18:20, Заочка <zaochka@federation.test> написал(а):\n>\n"
          + quote(ZAOCHKA_LETTER))
    plain("022-apple-mail-en", "Your move: 12... f8:d6\nMy move: 13. e3-f4\n"
          "Dates: 01.12.2026 / 03.12.2026 / 05.12.2026\nTime: 23/17\n\n"
          "> On 30 Nov 2026, at 18:20, Zaochka <zaochka@federation.test> wrote:\n>\n" + quote(ZAOCHKA_LETTER),
          frm=SMITH)
    plain("023-yandex", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n\n"
          "30.11.2026, 18:20, \"Заочка\" <zaochka@federation.test>:\n" + quote(ZAOCHKA_LETTER),
          cte="base64")
    html("024-yandex-html", "<div>Ваш ход: 12... f8:d6</div><div>Мой ход: 13. e3-f4</div>"
         "<div>Даты: 01.12.2026 / 03.12.2026 / 05.12.2026</div><div>Время: 23/17</div><div>&nbsp;</div>"
         "<div>30.11.2026, 18:20, \"Заочка\" &lt;zaochka@federation.test&gt;:</div>"
         "<blockquote><div>" + ZAOCHKA_LETTER.replace("\n", "</div><div>") + "</div></blockquote>")
    plain("025-mailru", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n\n\n"
          "Понедельник, 30 ноября 2026, 18:20 +03:00 от Заочка <zaochka@federation.test>:\n\n"
          + quote(ZAOCHKA_LETTER, ">") + "\n\n--\nОтправлено из Почты Mail.ru",
          cte="base64")
    plain("026-mailru-forward-for-protest",
          "Протест: партнёр не повторил мой ход 12... f8:d6 и ответил ходом на чужую позицию; "
          "прошу главного судью рассмотреть.\n\n"
          "-------- Пересылаемое сообщение --------\nОт кого: Петрова Анна <petrova@players.test>\n"
          "Кому: ivanov@players.test\nДата: Понедельник, 30 ноября 2026, 18:20 +03:00\n\n"
          "Мой ход: 13. a1-b2\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026")
    plain("027-long-thread-nested-quotes",
          "Ваш ход: 14... h6-g5\nМой ход: 15. e5:c7\nДаты: 06.12.2026 / 07.12.2026 / 08.12.2026\n"
          "Время: 24/19\n\n06.12.2026 9:00, Заочка пишет:\n> Ваш ход: 14. f4-e5\n> Мой ход: 14... h6-g5\n"
          ">\n> 05.12.2026 10:00, Иванов Иван пишет:\n>> Ваш ход: 12... f8:d6\n>> Мой ход: 13. e3-f4\n"
          ">>\n>> 30.11.2026 18:20, Заочка пишет:\n>>> " + "\n>>> ".join(ZAOCHKA_LETTER.split("\n")),
          date="Tue, 08 Dec 2026 21:00:00 +0300")
    plain("028-inline-answers-between-quotes",
          "> Ваш ход: 11. c3-d4\n> Мой ход: 11... f8:d6 12. e3-f4\nВаш ход: 12... f8:d6\n"
          "Мой ход: 13. e3-f4\n> Даты: 28.11.2026 / 29.11.2026 / 30.11.2026\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\n> Время: 21/17\nВремя: 23/17\n")

    # --- keyword forms -----------------------------------------------------------------
    plain("029-english-full", "Hello Anna,\nTournament: ZSh-2026-1\nGame 7\nYour move: 12... f8:d6\n"
          "My move: 13. e3-f4\nVariant A: 13... g7-h6 14. f4-e5\nVariant B: If 13... f6-g5, then 14. f4:h6\n"
          "On 13... b6-a5 I propose 14. f4-g5\nDates: 01.12.2026 / 03.12.2026 / 05.12.2026\nTime: 23/17\n"
          "Best regards,\nJohn", frm=SMITH, subject="Game 7")
    plain("030-english-draw-offer", "Game 7\nYour move: 12... f8:d6\nMy move: 13. e3-f4\n"
          "I offer a draw.\nDates: 01.12.26, 03.12.26, 05.12.26\nTime: 23/17", frm=SMITH)
    plain("031-english-draw-accepted", "Tournament ZSh-2026-1, game 7.\nI accept the draw. Thank you for the game!",
          frm=SMITH, subject="Re: ZSh-2026-1 game 7")
    plain("032-english-resign", "Game 7: I resign. Well played.", frm=SMITH, subject="Re: game 7")
    plain("033-english-break", "I take a break from 10.10 to 25.10 in all my games.", frm=SMITH,
          subject="Break", date="Thu, 01 Oct 2026 12:00:00 +0000", reply=False)
    plain("034-no-colons-lower-case-one-line",
          "шифр ЗШ-2026-1 партия 7 ваш ход 12... f8:d6 мой ход 13. e3-f4 даты 01.12.2026 03.12.2026 "
          "05.12.2026 время 23/17")
    plain("035-any-order-upper-case", "ВРЕМЯ: 23/17\nДАТЫ: 01.12.2026 / 03.12.2026 / 05.12.2026\n"
          "МОЙ ХОД: 13. E3-F4\nВАШ ХОД: 12... F8:D6\nШИФР: ЗШ-2026-1\nПАРТИЯ 7")
    plain("036-game-number-sign", "Шифр турнира: ЗШ-2026-1\nПартия №12\nВаши ходы: 20... c5:e3 21. f2:d4\n"
          "Мои ходы: 21... h6-g5\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 40/38",
          subject="ход")
    plain("037-game-by-opponent-name", "Партия с Петровой.\nВаш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17", subject="ход", reply=False)
    plain("038-cipher-and-game-in-subject-only", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17", subject="ЗШ-2026-1, партия 7")
    plain("039-numeric-notation-hundred", "Шифр: СТ-2026-3, партия 2\nВаш ход: 20... 19-23\n"
          "Мой ход: 21. 28:19 14:23 22. 32-28\nЕсли 22... 23:32, то 23. 37:28\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 30/31", subject="СТ-2026-3, партия 2")
    plain("040-ellipsis-and-spaced-black-numbers", "Ваш ход: 12… f8:d6\nМой ход: 13.e3-f4 13. ... g7-h6 14.f4-e5\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("041-moves-on-lines-below-keywords", "Ваш ход:\n12... f8:d6\n\nМои ходы:\n13. e3-f4 g7-h6\n"
          "14. f4-e5\n\nДаты:\n01.12.2026\n03.12.2026\n05.12.2026\n\nВремя:\n23/17")
    plain("042-three-labelled-variants", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Вариант А: 13... g7-h6 14. f4-e5 h6-g5\nВариант Б: если 13... f6-g5, то 14. f4:h6\n"
          "Вариант В: на 13... b6-a5 предлагаю 14. f4-g5\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("043-variant-na-predlagayu", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "На 13... g7-h6 предлагаю 14. f4-e5\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("044-variant-predlagayu-variant", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Предлагаю вариант: 13... g7-h6 14. f4-e5 h6-g5 15. e5:c7\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("045-accepted-variant-part-then-own-move",
          "Ваш ход: 12... f8:d6\nВариант принимаю до 14-го хода.\n"
          "Мой ход: 13. e3-f4 g7-h6 14. f4-e5 f6-g5 15. e5-d6\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("046-forced-moves-written-per-10-2-4", "Ваш ход: 12... f6-e5\n"
          "Мой ход: 13. d4:f6 g7:e5 14. c3-d4\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("047-draw-offer-ru", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\nПредлагаю ничью.\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("048-draw-accept-ru", "Ничью принимаю. Спасибо за партию!", subject="Re: ЗШ-2026-1, партия 7")
    plain("049-draw-accept-soglasna", "Здравствуйте!\nСогласна на ничью.\nАнна", frm=PETROVA)
    plain("050-draw-declined-with-move", "Ничью не принимаю.\nВаш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("051-resign-ru", "Сдаюсь. Спасибо за интересную партию!\nИван", cte="quoted-printable")
    plain("052-break-ru", "Беру перерыв с 10.10 по 25.10 во всех партиях.",
          date="Mon, 05 Oct 2026 09:00:00 +0300", subject="Перерыв", reply=False)
    plain("053-break-over-new-year", "Беру перерыв с 28.12 по 05.01.", date="Wed, 02 Dec 2026 09:00:00 +0300",
          subject="Перерыв", reply=False)
    plain("054-protest", "Шифр: ЗШ-2026-1, партия 7\n"
          "Протест: просрочку не признаю, письмо с ходом 13. e3-f4 отправлено 20.11.2026,\n"
          "копию прилагаю. Мой ход был повторён партнёром.\n\nИванов")
    plain("055-analysis-for-adjudication", "Шифр: ЗШ-2026-1, партия 7\n"
          "Анализ: после 30. c3-d4 e5:c3 31. b2:d4 у белых лишняя шашка, но\n"
          "если 31... h6-g5, то 32. d4-e5 с ничьей.\nОценка: ничья\n\nС уважением, Иван")

    # --- typical mistakes --------------------------------------------------------------
    plain("056-short-notation", "Ваш ход: 12... f8:d6\nМой ход: 13. ef4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("057-semi-short-capture-in-repetition", "Ваш ход: 12... f:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("058-cyrillic-letters-in-squares", "Ваш ход: 12... f8:d6\nМой ход: 13. е3-f4 g7-h6 14. с3:а5\n"
          "Если 14... в6-а5, то 15. Е3-Д4\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("059-missing-repetition", "Шифр: ЗШ-2026-1, партия 7\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("060-variant-cut-at-short-notation", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Вариант А: 13... g7-h6 14. fe5 h6-g5\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("061-variant-with-impossible-but-readable-move", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Если 13... g7-h6, то 14. a1-h8\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("062-numbering-same-number-twice", "Ваш ход: 12... f8:d6\nМой ход: 12. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("063-numbering-skips-a-move", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4 g7-h6 15. f4-e5\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("064-dates-and-time-missing", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\nЖду ответа.")
    plain("065-two-dates-only", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\nДаты: 03.12.2026 / 05.12.2026\n"
          "Время: 23/17")
    plain("066-unreadable-move", "Ваш ход: 12... f8:d6\nМой ход: 13. е3-ф4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")
    plain("067-dashes-and-x-captures", "Ваш ход: 12... f8×d6\nМой ход: 13. e3–f4 g7—h6 14. f4−e5 h6‒g5 15. e5xc7\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23 дн. / 17 дн.")
    plain("068-two-digit-year-dates", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\nДаты: 1.12.26; 3.12.26; 5.12.26\n"
          "Время: 23/17")
    plain("069-year-less-dates-over-new-year", "Ваш ход: 30... f8:d6\nМой ход: 31. e3-f4\n"
          "Даты: 29.12 / 31.12 / 02.01\nВремя: 80/77", date="Sat, 02 Jan 2027 10:00:00 +0300")
    plain("070-signature-with-moves-cut", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n-- \n"
          "Иван Иванов. Мой любимый дебют: 1. c3-d4 f6-g5 2. b2-c3")

    # --- not a letter at all -----------------------------------------------------------
    plain("071-vacation-auto-reply", "Я в отпуске до 15.12 и отвечу по возвращении.",
          subject="Автоответ: ЗШ-2026-1, партия 7", headers=["Auto-Submitted: auto-replied"])
    write("072-bounce-multipart-report", multipart("report; report-type=delivery-status", [
        part("This is the mail system at host mx.players.test.\n\nI'm sorry to have to inform you "
             "that your message could not be delivered."),
        b"Content-Type: message/delivery-status\n\nReporting-MTA: dns; mx.players.test\n"
        b"Final-Recipient: rfc822; nobody@players.test\nAction: failed\nStatus: 5.1.1\n",
    ], "bounce072"), frm=None, subject="Undelivered Mail Returned to Sender", reply=False)
    plain("073-mailing-list", "Новости федерации: стартовал турнир ЗШ-2026-2.",
          frm=("Федерация", "news@federation.test"), subject="Новости", reply=False,
          headers=["List-Id: <news.federation.test>", "Precedence: list",
                   "List-Unsubscribe: <mailto:news-unsubscribe@federation.test>"])
    plain("074-outlook-automatic-reply-en", "I am out of the office until Monday.",
          frm=SMITH, subject="Automatic reply: ZSh-2026-1 game 7", headers=["X-Autoreply: yes"])
    write("075-attachment-only-scan", multipart("mixed", [
        part("Ход во вложении."),
        attachment("scan.jpg", "image/jpeg", b"\xff\xd8\xff\xe0" + bytes(300)),
    ], "mixed075"))
    plain("076-no-keywords-just-moves", "Добрый день! 12... f8:d6 13. e3-f4. Жду ответа.")
    alternative("077-english-outlook-html-reply", "My move: 13. e3-f4\nYour move: 12... f8:d6\n"
                "Dates: 01.12.2026 / 03.12.2026 / 05.12.2026\nTime: 23/17\n\n"
                "________________________________\nFrom: Zaochka <zaochka@federation.test>\n"
                "Sent: Monday, November 30, 2026 6:20 PM\nTo: smith@players.test\n\n" + ZAOCHKA_LETTER,
                "<html><body><p>My move: 13. e3-f4<br>Your move: 12... f8:d6<br>"
                "Dates: 01.12.2026 / 03.12.2026 / 05.12.2026<br>Time: 23/17</p>"
                "<hr><div><b>From:</b> Zaochka<br><b>Sent:</b> Monday<br></div><p>"
                + ZAOCHKA_LETTER.replace("\n", "<br>") + "</p></body></html>", frm=SMITH)
    plain("078-not-resigning-all-on-one-line", "Не сдаюсь! Мой ход: 13. e3-f4, а вы подумайте.\n"
          "Ваш ход 12... f8:d6. Даты 01.12.2026/03.12.2026/05.12.2026, время 23/17.")
    plain("079-break-and-move-in-one-letter", "Ваш ход: 12... f8:d6\nМой ход: 13. e3-f4\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17\n"
          "Также беру перерыв с 20.12.2026 по 10.01.2027.")
    plain("080-english-variants-if-then-numeric", "Game 2\nYour move: 20... 19-23\nMy move: 21. 28x19 14x23 22. 32-28\n"
          "If 22... 23x32, then 23. 37x28\nDates: 01.12.2026 / 03.12.2026 / 05.12.2026\nTime: 30/31",
          frm=SMITH, subject="Re: ST-2026-3 game 2")

    plain("081-prose-with-words-between-keywords-and-values",
          "Добрый вечер, Анна!\nОтвет на ваш ход 12... f8:d6: отвечаю 13. e3-f4.\n"
          "Даты получения, ответа и отправки: 01.12.2026 / 03.12.2026 / 05.12.2026\n"
          "Время на обдумывание: белые 23, чёрные 17.\nВсего доброго!")
    plain("082-english-prose-if-you-want", "Hi Anna,\nthanks for your letter. If you want, we may "
          "go faster this winter.\nYour move 12... f8:d6; my move 13. e3-f4.\n"
          "Dates: 01.12.2026 / 03.12.2026 / 05.12.2026. Time used: 23/17.\nCheers, John", frm=SMITH)
    plain("083-hundred-algebraic-files-i-and-k", "Шифр: СТ-2026-3, партия 4\nВаш ход: 20... b6-a5\n"
          "Мой ход: 21. i3-k4\nЕсли 21... a5-b4, то 22. k4:i5\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 30/31", subject="СТ-2026-3, партия 4")
    plain("084-mailru-mobile-top-post", "Ваш ход 12...f8:d6\nМой ход 13.e3-f4\n"
          "Даты 01.12.2026 03.12.2026 05.12.2026\nВремя 23/17\n\n\n--\n"
          "Отправлено из мобильной Почты Mail.ru\n\n"
          "Понедельник, 30 ноября 2026, 18:20 +03:00 от Заочка <zaochka@federation.test>:\n"
          + ZAOCHKA_LETTER)
    html("085-outlook-ru-html-original-message", "<html><body><p>Ваш ход: 12... f8:d6<br>"
         "Мой ход: 13. e3-f4<br>Даты: 01.12.2026 / 03.12.2026 / 05.12.2026<br>Время: 23/17</p>"
         "<p>-----Исходное сообщение-----<br>От: Заочка [mailto:zaochka@federation.test]<br>"
         "Отправлено: 30 ноября 2026 г. 18:20<br>Кому: ivanov@players.test<br>Тема: ЗШ-2026-1</p><p>"
         + ZAOCHKA_LETTER.replace("\n", "<br>") + "</p></body></html>", charset="windows-1251",
         cte="base64")

    plain("086-gmail-reply-to-real-forward", "Ваш ход: 13... g5:e3\nМой ход: 14. f2:d4\n"
          "Даты: 05.12.2026 / 06.12.2026 / 06.12.2026\nВремя: 23/18\n\n"
          "сб, 5 дек. 2026 г. в 12:00, ЗШ почтамт <zaochka@tournament.test>:\n\n" + quote(REAL_FORWARD),
          frm=("Петров Пётр", "petrov@players.test"), subject="Re: ЗШ-2026-1, партия 7: ход 13... g5:e3",
          date="Sun, 06 Dec 2026 09:30:00 +0300")
    plain("087-real-forward-pasted-without-quote-marks", "Ваш ход: 13... g5:e3\nМой ход: 14. f2:d4\n"
          "Даты: 05.12.2026 / 06.12.2026 / 06.12.2026\nВремя: 23/18\n\n" + REAL_FORWARD,
          frm=("Петров Пётр", "petrov@players.test"), subject="Re: ЗШ-2026-1, партия 7: ход 13... g5:e3",
          date="Sun, 06 Dec 2026 09:30:00 +0300")
    plain("088-only-the-hint-lines-filled-in", "Ваш ход: 13... g5:e3\nМой ход: 14. f2:d4 b6-a5 15. d4-c5\n"
          "Даты: 05.12.2026 / 06.12.2026 / 06.12.2026\nВремя: 23/18",
          frm=("Петров Пётр", "petrov@players.test"), subject="Re: ЗШ-2026-1, партия 7: ход 13... g5:e3",
          date="Sun, 06 Dec 2026 09:30:00 +0300")

    write("089-unlabelled-windows-1251-8bit", part(PLAYER, charset="windows-1251", declared=""))
    write("090-koi8r-labelled-utf8-base64", part(PLAYER, charset="koi8-r", cte="base64",
                                                 declared="utf-8"))

    plain("091-lettered-variants-in-one-line", "Ваш ход получен: 12... f8:d6\nОтветный ход: 13. e3-f4\n"
          "Варианты: а) если 13... g7-h6, то 14. f4-e5; б) на 13... f6-g5 предлагаю 14. f4:h6.\n"
          "Даты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")

    plain("092-spaces-around-dashes-and-colons", "Ваш ход: 12... f8 : d6\nМой ход: 13. e3 - f4 g7 -h6 "
          "14. f4- e5\nДаты: 01.12.2026 / 03.12.2026 / 05.12.2026\nВремя: 23/17")


if __name__ == "__main__":
    corpus()
