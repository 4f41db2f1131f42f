/** Shop, travel and office texts written for the token estimate bench, in Latin-script languages other than English. */
export const otherLanguages: string[] = [
  // German
  'Die Bestellung wird voraussichtlich am Dienstag zwischen neun und zwölf Uhr geliefert. Vielen Dank für Ihren Einkauf.',
  'Sehr geehrte Kundin, sehr geehrter Kunde, Ihre Rücksendung wurde erfolgreich registriert. Die Gutschrift erfolgt innerhalb von vierzehn Werktagen nach Wareneingang auf das ursprüngliche Zahlungsmittel.',
  'Bitte beachten Sie unsere Datenschutzbestimmungen und Allgemeinen Geschäftsbedingungen. Versandkostenfreie Lieferung ab fünfzig Euro Mindestbestellwert.',
  'Fügt einen Artikel in den Warenkorb ein. Die Menge muss eine ganze Zahl zwischen eins und zehn sein; ausverkaufte Artikel werden abgelehnt.',
  'Zugverbindung von Berlin Hauptbahnhof nach München: Abfahrt 08:34, Ankunft 12:51, Umstieg in Nürnberg, Sitzplatzreservierung empfohlen.',
  // French
  "Votre commande de deux tasses bleues arrivera mardi entre neuf heures et midi. Merci d'avoir fait vos achats chez nous.",
  "Les conditions générales de vente s'appliquent à toutes les commandes passées sur notre boutique en ligne. Le remboursement intervient sous quatorze jours.",
  "Réserve une table pour le nombre de personnes indiqué. L'heure doit être comprise entre dix-huit heures et vingt-deux heures trente.",
  "Recherche les vols disponibles entre deux aéroports à une date donnée, avec les correspondances et les bagages en soute inclus.",
  // Spanish
  'Su pedido ha sido enviado y llegará el martes entre las nueve y las doce. Gracias por comprar con nosotros; puede consultar el estado del envío en su cuenta.',
  'Busca productos en el catálogo por palabra clave y devuelve el nombre, el precio y la disponibilidad de cada artículo encontrado.',
  'La habitación doble con vistas al mar incluye desayuno, aparcamiento gratuito y cancelación sin coste hasta cuarenta y ocho horas antes de la llegada.',
  // Italian
  "L'ordine è stato spedito e arriverà martedì tra le nove e mezzogiorno. Grazie per aver acquistato da noi; puoi seguire la spedizione dal tuo account.",
  'Prenota un appuntamento presso la filiale più vicina indicando il giorno, la fascia oraria preferita e il motivo della visita.',
  // Portuguese
  'Seu pedido foi enviado e chegará na terça-feira entre nove horas e meio-dia. Obrigado por comprar conosco; acompanhe a entrega na sua conta.',
  'Adiciona um produto ao carrinho. A quantidade deve ser um número inteiro entre um e dez; produtos esgotados são recusados.',
  // Dutch
  'Uw bestelling wordt naar verwachting dinsdag tussen negen en twaalf uur bezorgd. Bedankt voor uw aankoop bij onze webwinkel.',
  'Zoekt beschikbare treinverbindingen tussen twee stations op de opgegeven datum, inclusief overstappen en reserveringsmogelijkheden.',
  // Polish
  'Zamówienie zostanie dostarczone we wtorek między dziewiątą a dwunastą. Dziękujemy za zakupy w naszym sklepie internetowym.',
  'Wyszukuje produkty w katalogu według słowa kluczowego i zwraca nazwę, cenę oraz dostępność każdego znalezionego artykułu.',
  // Czech
  'Vaše objednávka bude doručena v úterý mezi devátou a dvanáctou hodinou. Děkujeme za nákup v našem internetovém obchodě.',
  // Turkish
  'Siparişiniz salı günü saat dokuz ile on iki arasında teslim edilecektir. Alışverişiniz için teşekkür ederiz.',
  // Swedish
  'Din beställning levereras på tisdag mellan nio och tolv. Tack för att du handlar hos oss; du kan följa leveransen i ditt konto.',
  // Vietnamese
  'Đơn hàng của bạn sẽ được giao vào thứ Ba trong khoảng từ chín giờ đến mười hai giờ. Cảm ơn bạn đã mua sắm tại cửa hàng của chúng tôi.',
  // Indonesian
  'Pesanan Anda akan dikirim pada hari Selasa antara pukul sembilan dan dua belas. Terima kasih telah berbelanja di toko kami.',
];

/** The same kind of text in other scripts. */
export const otherScripts: string[] = [
  'आपका ऑर्डर मंगलवार को नौ से बारह बजे के बीच पहुंचेगा। हमारी दुकान से खरीदारी करने के लिए धन्यवाद।', // Hindi
  'আপনার অর্ডার মঙ্গলবার নয়টা থেকে বারোটার মধ্যে পৌঁছাবে। আমাদের দোকান থেকে কেনাকাটা করার জন্য ধন্যবাদ।', // Bengali
  'உங்கள் ஆர்டர் செவ்வாய்க்கிழமை ஒன்பது முதல் பன்னிரண்டு மணிக்குள் வந்து சேரும். எங்கள் கடையில் வாங்கியதற்கு நன்றி.', // Tamil
  'คำสั่งซื้อของคุณจะมาถึงในวันอังคารระหว่างเก้าโมงถึงเที่ยง ขอบคุณที่ซื้อสินค้ากับเรา', // Thai
  'ትዕዛዝዎ ማክሰኞ ከዘጠኝ እስከ አሥራ ሁለት ሰዓት ይደርሳል። ከእኛ ስለገዙ እናመሰግናለን።', // Amharic
  'سيصل طلبك يوم الثلاثاء بين التاسعة والثانية عشرة. شكرا لتسوقك معنا.', // Arabic
  'ההזמנה שלך תגיע ביום שלישי בין תשע לשתים עשרה. תודה שקנית אצלנו.', // Hebrew
  'Η παραγγελία σας θα φτάσει την Τρίτη μεταξύ εννέα και δώδεκα. Ευχαριστούμε για την αγορά σας.', // Greek
  'Ваш заказ будет доставлен во вторник с девяти до двенадцати. Спасибо за покупку в нашем магазине.', // Russian
  'Ваше замовлення буде доставлено у вівторок з дев’ятої до дванадцятої. Дякуємо за покупку.', // Ukrainian
  '주문하신 상품은 화요일 9시에서 12시 사이에 도착합니다. 저희 매장을 이용해 주셔서 감사합니다.', // Korean
  'ご注文の商品は火曜日の9時から12時の間に届きます。当店をご利用いただきありがとうございます。', // Japanese
  'თქვენი შეკვეთა სამშაბათს ცხრიდან თორმეტამდე მოვა. გმადლობთ, რომ ჩვენთან იყიდეთ.', // Georgian
  'Ձեր պատվերը կհասնի երեքշաբթի ժամը իննից տասներկուսը: Շնորհակալություն գնումների համար:', // Armenian
  'سفارش شما روز سه‌شنبه بین ساعت نه تا دوازده می‌رسد. از خرید شما متشکریم.', // Persian
];
