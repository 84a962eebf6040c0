//! Reading a raw RFC 5322 message (mail-parser): headers, the text a player wrote (plain or
//! HTML, any charset and transfer encoding), attachments, and whether it is automatic mail.
